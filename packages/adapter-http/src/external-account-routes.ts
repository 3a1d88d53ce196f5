import {
  createExternalAccount,
  decideLiveness,
  deleteExternalAccount,
  type ExternalAccountRoute,
  getExternalAccount,
  confirmTrustChange,
  startTrustChange,
  listEvents,
  sendTestWebhook,
  webhookPublicKey,
  listExternalAccounts,
  LivenessBody,
  OwnershipChallengeBody,
  OwnershipVerifyBody,
  startOwnershipChallenge,
  TrustConfirmBody,
  verifyOwnership
} from "@tessera/core"
import type { Route } from "./routes.ts"

/** External accounts and their ownership verification (spec section 1), on both owner routes. */
const routesFor = (route: ExternalAccountRoute, base: string, ids: Record<string, string>): ReadonlyArray<Route> => {
  const owner = route === "customers" ? "a customer's" : "the platform's"
  return [
    {
      method: "POST",
      path: base,
      operationId: ids["create"]!,
      status: 201,
      summary: `Register ${owner} bank account or wallet, its details checked against its account type`,
      handle: (c) => createExternalAccount(c.platform, c.body, route)
    },
    {
      method: "GET",
      path: base,
      operationId: ids["list"]!,
      status: 200,
      summary: `List ${route === "customers" ? "customers'" : "the platform's"} external accounts, paged by cursor`,
      handle: (c) => listExternalAccounts(c.platform, c.query, route)
    },
    {
      method: "GET",
      path: `${base}/{externalAccountId}`,
      operationId: ids["get"]!,
      status: 200,
      summary: `Read one of ${owner} external accounts`,
      handle: (c) => getExternalAccount(c.platform, c.params["externalAccountId"]!, route)
    },
    {
      method: "DELETE",
      path: `${base}/{externalAccountId}`,
      operationId: ids["delete"]!,
      status: 204,
      summary: `Delete one of ${owner} external accounts`,
      handle: (c) => deleteExternalAccount(c.platform, c.params["externalAccountId"]!, route)
    },
    {
      method: "POST",
      path: `${base}/{externalAccountId}/challenge`,
      operationId: ids["challenge"]!,
      status: 201,
      summary: "Start an ownership check of a wallet account: a message to sign, or a liveness check",
      body: OwnershipChallengeBody,
      handle: (c) => startOwnershipChallenge(c.platform, c.params["externalAccountId"]!, c.body, route)
    },
    {
      method: "POST",
      path: `${base}/{externalAccountId}/verify`,
      operationId: ids["verify"]!,
      status: 200,
      summary: "Answer the ownership challenge with the wallet's signature; the account becomes ACTIVE or stays UNVERIFIED",
      body: OwnershipVerifyBody,
      handle: (c) => verifyOwnership(c.platform, c.params["externalAccountId"]!, c.body, route)
    }
  ]
}

export const externalAccountRoutes: ReadonlyArray<Route> = [
  ...routesFor("customers", "/customers/external-accounts", {
    create: "createCustomerExternalAccount",
    list: "listCustomerExternalAccounts",
    get: "getCustomerExternalAccountById",
    delete: "deleteCustomerExternalAccountById",
    challenge: "createExternalAccountOwnershipChallenge",
    verify: "verifyExternalAccountOwnership"
  }),
  ...routesFor("platform", "/platform/external-accounts", {
    create: "createPlatformExternalAccount",
    list: "listPlatformExternalAccounts",
    get: "getPlatformExternalAccountById",
    delete: "deletePlatformExternalAccountById",
    challenge: "createPlatformExternalAccountOwnershipChallenge",
    verify: "verifyPlatformExternalAccountOwnership"
  }),
  {
    method: "POST",
    path: "/sandbox/external-accounts/{externalAccountId}/liveness",
    operationId: "tessera.decideLiveness",
    status: 200,
    summary: "Sandbox: decide an outstanding liveness check, PASSED or FAILED",
    body: LivenessBody,
    handle: (c) => decideLiveness(c.platform, c.params["externalAccountId"]!, c.body)
  },
  ...(["trust", "untrust"] as const).flatMap((action): ReadonlyArray<Route> => {
    const trust = action === "trust"
    const cap = trust ? "Trust" : "Untrust"
    return [
      {
        method: "POST",
        path: `/customers/external-accounts/{externalAccountId}/${action}`,
        operationId: `startBeneficiary${cap}`,
        status: 200,
        summary: `Start ${trust ? "trusting" : "untrusting"} a beneficiary: EU and EEA customers get an SCA challenge`,
        handle: (c) => startTrustChange(c.platform, c.params["externalAccountId"]!, trust)
      },
      {
        method: "POST",
        path: `/customers/external-accounts/{externalAccountId}/${action}/confirm`,
        operationId: `confirmBeneficiary${cap}`,
        status: 200,
        summary: `Complete the ${action} with the SCA proof (sandbox code 123456)`,
        body: TrustConfirmBody,
        handle: (c) => confirmTrustChange(c.platform, c.params["externalAccountId"]!, c.body, trust)
      }
    ]
  }),
  {
    method: "GET",
    path: "/sandbox/events",
    operationId: "tessera.listEvents",
    status: 200,
    summary: "Sandbox: the webhook events of the platform, oldest first, with each one's delivery attempts",
    handle: (c) => listEvents(c.platform, c.query)
  },
  {
    method: "POST",
    path: "/sandbox/webhooks/test",
    operationId: "sendTestWebhook",
    status: 200,
    summary: "Send a signed test event to the platform's webhook URL and report the receiver's answer",
    handle: (c) => sendTestWebhook(c.platform)
  },
  {
    method: "GET",
    path: "/sandbox/webhooks/public-key",
    operationId: "tessera.webhookPublicKey",
    status: 200,
    summary: "Sandbox: the P-256 public key webhook signatures verify with",
    handle: () => webhookPublicKey
  }
]
