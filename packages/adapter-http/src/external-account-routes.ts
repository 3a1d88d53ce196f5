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
  startOwnershipChallenge,
  verifyOwnership
} from "@tessera/core"
import type { Route } from "./routes.ts"

/** External accounts and their ownership verification (spec section 1), on both owner routes. */
const routesFor = (route: ExternalAccountRoute, base: string, ids: Record<string, string>): ReadonlyArray<Route> => [
  { method: "POST", path: base, operationId: ids["create"]!, status: 201, handle: (c) => createExternalAccount(c.platform, c.body, route) },
  { method: "GET", path: base, operationId: ids["list"]!, status: 200, handle: (c) => listExternalAccounts(c.platform, c.query, route) },
  {
    method: "GET",
    path: `${base}/{externalAccountId}`,
    operationId: ids["get"]!,
    status: 200,
    handle: (c) => getExternalAccount(c.platform, c.params["externalAccountId"]!, route)
  },
  {
    method: "DELETE",
    path: `${base}/{externalAccountId}`,
    operationId: ids["delete"]!,
    status: 204,
    handle: (c) => deleteExternalAccount(c.platform, c.params["externalAccountId"]!, route)
  },
  {
    method: "POST",
    path: `${base}/{externalAccountId}/challenge`,
    operationId: ids["challenge"]!,
    status: 201,
    handle: (c) => startOwnershipChallenge(c.platform, c.params["externalAccountId"]!, c.body, route)
  },
  {
    method: "POST",
    path: `${base}/{externalAccountId}/verify`,
    operationId: ids["verify"]!,
    status: 200,
    handle: (c) => verifyOwnership(c.platform, c.params["externalAccountId"]!, c.body, route)
  }
]

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
        handle: (c) => startTrustChange(c.platform, c.params["externalAccountId"]!, trust)
      },
      {
        method: "POST",
        path: `/customers/external-accounts/{externalAccountId}/${action}/confirm`,
        operationId: `confirmBeneficiary${cap}`,
        status: 200,
        handle: (c) => confirmTrustChange(c.platform, c.params["externalAccountId"]!, c.body, trust)
      }
    ]
  }),
  { method: "GET", path: "/sandbox/events", operationId: "tessera.listEvents", status: 200, handle: (c) => listEvents(c.platform, c.query) },
  { method: "POST", path: "/sandbox/webhooks/test", operationId: "sendTestWebhook", status: 200, handle: (c) => sendTestWebhook(c.platform) },
  { method: "GET", path: "/sandbox/webhooks/public-key", operationId: "tessera.webhookPublicKey", status: 200, handle: () => webhookPublicKey }
]
