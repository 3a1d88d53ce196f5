import { TrustConfirmBody, confirmTrustChange, startTrustChange } from "../operations/external-accounts/beneficiary-trust.ts"
import {
  CustomerExternalAccountsQuery,
  createExternalAccount,
  deleteExternalAccount,
  getExternalAccount,
  listExternalAccounts
} from "../operations/external-accounts/external-accounts.ts"
import {
  decideLiveness,
  LivenessBody,
  OwnershipChallengeBody,
  OwnershipVerifyBody,
  startOwnershipChallenge,
  verifyOwnership
} from "../operations/external-accounts/ownership.ts"
import { ExternalAccountCreate } from "./account-bodies.ts"
import { endpoint } from "./define.ts"

/** The customers' external accounts, their ownership checks and beneficiary trust (spec section 1). */
export const externalAccountEndpoints = [
  endpoint({
    group: "external-accounts",
    name: "create",
    method: "POST",
    path: "/customers/external-accounts",
    operationId: "createCustomerExternalAccount",
    status: 201,
    summary: "Register a customer's bank account or wallet, its details checked against its account type",
    body: ExternalAccountCreate,
    documentBody: false,
    run: (r) => createExternalAccount(r.platform, r.body, "customers")
  }),
  endpoint({
    group: "external-accounts",
    name: "list",
    method: "GET",
    path: "/customers/external-accounts",
    operationId: "listCustomerExternalAccounts",
    status: 200,
    summary: "List customers' external accounts, paged by cursor",
    query: CustomerExternalAccountsQuery,
    run: (r) => listExternalAccounts(r.platform, r.query, "customers")
  }),
  endpoint({
    group: "external-accounts",
    name: "get",
    method: "GET",
    path: "/customers/external-accounts/{externalAccountId}",
    operationId: "getCustomerExternalAccountById",
    status: 200,
    summary: "Read one of a customer's external accounts",
    run: (r) => getExternalAccount(r.platform, r.params.externalAccountId, "customers")
  }),
  endpoint({
    group: "external-accounts",
    name: "delete",
    method: "DELETE",
    path: "/customers/external-accounts/{externalAccountId}",
    operationId: "deleteCustomerExternalAccountById",
    status: 204,
    summary: "Delete one of a customer's external accounts",
    run: (r) => deleteExternalAccount(r.platform, r.params.externalAccountId, "customers")
  }),
  endpoint({
    group: "external-accounts",
    name: "challenge",
    method: "POST",
    path: "/customers/external-accounts/{externalAccountId}/challenge",
    operationId: "createExternalAccountOwnershipChallenge",
    status: 201,
    summary: "Start an ownership check of a wallet account: a message to sign, or a liveness check",
    body: OwnershipChallengeBody,
    run: (r) => startOwnershipChallenge(r.platform, r.params.externalAccountId, r.body)
  }),
  endpoint({
    group: "external-accounts",
    name: "verify",
    method: "POST",
    path: "/customers/external-accounts/{externalAccountId}/verify",
    operationId: "verifyExternalAccountOwnership",
    status: 200,
    summary: "Answer the ownership challenge with the wallet's signature; the account becomes ACTIVE or stays UNVERIFIED",
    body: OwnershipVerifyBody,
    run: (r) => verifyOwnership(r.platform, r.params.externalAccountId, r.body)
  }),
  endpoint({
    group: "external-accounts",
    name: "decideLiveness",
    method: "POST",
    path: "/sandbox/external-accounts/{externalAccountId}/liveness",
    operationId: "tessera.decideLiveness",
    status: 200,
    summary: "Sandbox: decide an outstanding liveness check, PASSED or FAILED",
    body: LivenessBody,
    run: (r) => decideLiveness(r.platform, r.params.externalAccountId, r.body)
  }),
  endpoint({
    group: "external-accounts",
    name: "trust",
    method: "POST",
    path: "/customers/external-accounts/{externalAccountId}/trust",
    operationId: "startBeneficiaryTrust",
    status: 200,
    summary: "Start trusting a beneficiary: EU and EEA customers get an SCA challenge",
    run: (r) => startTrustChange(r.platform, r.params.externalAccountId, true)
  }),
  endpoint({
    group: "external-accounts",
    name: "confirmTrust",
    method: "POST",
    path: "/customers/external-accounts/{externalAccountId}/trust/confirm",
    operationId: "confirmBeneficiaryTrust",
    status: 200,
    summary: "Complete the trust with the SCA proof (sandbox code 123456)",
    body: TrustConfirmBody,
    run: (r) => confirmTrustChange(r.platform, r.params.externalAccountId, r.body, true)
  }),
  endpoint({
    group: "external-accounts",
    name: "untrust",
    method: "POST",
    path: "/customers/external-accounts/{externalAccountId}/untrust",
    operationId: "startBeneficiaryUntrust",
    status: 200,
    summary: "Start untrusting a beneficiary: EU and EEA customers get an SCA challenge",
    run: (r) => startTrustChange(r.platform, r.params.externalAccountId, false)
  }),
  endpoint({
    group: "external-accounts",
    name: "confirmUntrust",
    method: "POST",
    path: "/customers/external-accounts/{externalAccountId}/untrust/confirm",
    operationId: "confirmBeneficiaryUntrust",
    status: 200,
    summary: "Complete the untrust with the SCA proof (sandbox code 123456)",
    body: TrustConfirmBody,
    run: (r) => confirmTrustChange(r.platform, r.params.externalAccountId, r.body, false)
  })
]
