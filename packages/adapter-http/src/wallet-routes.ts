import {
  challengeCredential,
  createCredential,
  exportWallet,
  listCredentials,
  listSessions,
  refreshSession,
  revokeCredential,
  revokeSession,
  setProcessingHold,
  updateInternalAccount,
  verifyCredential,
  walletHeaders
} from "@tessera/core"
import type { Route } from "./routes.ts"

/**
 * Embedded-wallet credentials, sessions and signed retries (spec section 2). Signed endpoints
 * answer with the status the protocol decides (202, 201, 204, 200 PROCESSING); `status` here is
 * the success status of the reference operation.
 */
export const walletRoutes: ReadonlyArray<Route> = [
  {
    method: "POST",
    path: "/auth/credentials",
    operationId: "createAuthCredential",
    status: 201,
    handle: (c) => createCredential(c.platform, c.body, walletHeaders(c.header))
  },
  { method: "GET", path: "/auth/credentials", operationId: "listAuthCredentials", status: 200, handle: (c) => listCredentials(c.platform, c.query) },
  {
    method: "DELETE",
    path: "/auth/credentials/{id}",
    operationId: "revokeAuthCredential",
    status: 204,
    handle: (c) => revokeCredential(c.platform, c.params["id"]!, walletHeaders(c.header))
  },
  {
    method: "POST",
    path: "/auth/credentials/{id}/challenge",
    operationId: "challengeAuthCredential",
    status: 200,
    handle: (c) => challengeCredential(c.platform, c.params["id"]!, c.body)
  },
  {
    method: "POST",
    path: "/auth/credentials/{id}/verify",
    operationId: "verifyAuthCredential",
    status: 200,
    handle: (c) => verifyCredential(c.platform, c.params["id"]!, c.body, walletHeaders(c.header))
  },
  { method: "GET", path: "/auth/sessions", operationId: "listAuthSessions", status: 200, handle: (c) => listSessions(c.platform, c.query) },
  {
    method: "DELETE",
    path: "/auth/sessions/{id}",
    operationId: "revokeAuthSession",
    status: 204,
    handle: (c) => revokeSession(c.platform, c.params["id"]!, walletHeaders(c.header))
  },
  {
    method: "POST",
    path: "/auth/sessions/{id}/refresh",
    operationId: "refreshAuthSession",
    status: 201,
    handle: (c) => refreshSession(c.platform, c.params["id"]!, c.body, walletHeaders(c.header))
  },
  {
    method: "POST",
    path: "/internal-accounts/{id}/export",
    operationId: "exportInternalAccount",
    status: 200,
    handle: (c) => exportWallet(c.platform, c.params["id"]!, c.body, walletHeaders(c.header))
  },
  {
    method: "PATCH",
    path: "/internal-accounts/{id}",
    operationId: "updateInternalAccount",
    status: 200,
    handle: (c) => updateInternalAccount(c.platform, c.params["id"]!, c.body, walletHeaders(c.header))
  },
  {
    method: "POST",
    path: "/sandbox/internal-accounts/{id}/processing",
    operationId: "tessera.holdAccountOperations",
    status: 200,
    handle: (c) => setProcessingHold(c.platform, c.params["id"]!, c.body)
  },
  {
    method: "POST",
    path: "/sandbox/processing",
    operationId: "tessera.holdPlatformOperations",
    status: 200,
    handle: (c) => setProcessingHold(c.platform, undefined, c.body)
  }
]
