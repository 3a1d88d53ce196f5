import {
  createExternalAccount,
  deleteExternalAccount,
  getExternalAccount,
  listExternalAccounts,
  PlatformExternalAccountsQuery
} from "../operations/external-accounts/external-accounts.ts"
import { OwnershipChallengeBody, OwnershipVerifyBody, startOwnershipChallenge, verifyOwnership } from "../operations/external-accounts/ownership.ts"
import { listPlatformInternalAccounts, PlatformAccountsQuery } from "../operations/internal-accounts/queries.ts"
import { ExternalAccountCreate } from "./account-bodies.ts"
import { endpoint } from "./define.ts"

/** The platform's own accounts (`/platform/…`): its internal accounts and its external accounts. */
export const platformEndpoints = [
  endpoint({
    group: "platform",
    name: "listInternalAccounts",
    method: "GET",
    path: "/platform/internal-accounts",
    operationId: "listPlatformInternalAccounts",
    status: 200,
    summary: "List the platform's own internal accounts",
    query: PlatformAccountsQuery,
    run: (r) => listPlatformInternalAccounts(r.platform, r.query)
  }),
  endpoint({
    group: "platform",
    name: "createExternalAccount",
    method: "POST",
    path: "/platform/external-accounts",
    operationId: "createPlatformExternalAccount",
    status: 201,
    summary: "Register the platform's bank account or wallet, its details checked against its account type",
    body: ExternalAccountCreate,
    documentBody: false,
    run: (r) => createExternalAccount(r.platform, r.body, "platform")
  }),
  endpoint({
    group: "platform",
    name: "listExternalAccounts",
    method: "GET",
    path: "/platform/external-accounts",
    operationId: "listPlatformExternalAccounts",
    status: 200,
    summary: "List the platform's external accounts, paged by cursor",
    query: PlatformExternalAccountsQuery,
    run: (r) => listExternalAccounts(r.platform, r.query, "platform")
  }),
  endpoint({
    group: "platform",
    name: "getExternalAccount",
    method: "GET",
    path: "/platform/external-accounts/{externalAccountId}",
    operationId: "getPlatformExternalAccountById",
    status: 200,
    summary: "Read one of the platform's external accounts",
    run: (r) => getExternalAccount(r.platform, r.params.externalAccountId, "platform")
  }),
  endpoint({
    group: "platform",
    name: "deleteExternalAccount",
    method: "DELETE",
    path: "/platform/external-accounts/{externalAccountId}",
    operationId: "deletePlatformExternalAccountById",
    status: 204,
    summary: "Delete one of the platform's external accounts",
    run: (r) => deleteExternalAccount(r.platform, r.params.externalAccountId, "platform")
  }),
  endpoint({
    group: "platform",
    name: "challengeExternalAccount",
    method: "POST",
    path: "/platform/external-accounts/{externalAccountId}/challenge",
    operationId: "createPlatformExternalAccountOwnershipChallenge",
    status: 201,
    summary: "Start an ownership check of any wallet account of the platform, a customer's included: a message to sign, or a liveness check",
    body: OwnershipChallengeBody,
    run: (r) => startOwnershipChallenge(r.platform, r.params.externalAccountId, r.body)
  }),
  endpoint({
    group: "platform",
    name: "verifyExternalAccount",
    method: "POST",
    path: "/platform/external-accounts/{externalAccountId}/verify",
    operationId: "verifyPlatformExternalAccountOwnership",
    status: 200,
    summary: "Answer the ownership challenge of any wallet account of the platform, a customer's included; the account becomes ACTIVE or stays UNVERIFIED",
    body: OwnershipVerifyBody,
    run: (r) => verifyOwnership(r.platform, r.params.externalAccountId, r.body)
  })
]
