import { Schema } from "effect"
import {
  ChallengeBody,
  challengeCredential,
  createCredential,
  CredentialCreate,
  CredentialVerify,
  ExportBody,
  exportWallet,
  InternalAccountUpdate,
  listCredentials,
  listSessions,
  ProcessingHoldBody,
  RefreshBody,
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
    summary: "Add an email OTP, SMS OTP, OAuth or passkey credential to a wallet; once the wallet has one, a signed retry",
    body: Schema.Union(...Object.values(CredentialCreate)),
    handle: (c) => createCredential(c.platform, c.body, walletHeaders(c.header))
  },
  {
    method: "GET",
    path: "/auth/credentials",
    operationId: "listAuthCredentials",
    status: 200,
    summary: "List the credentials of one wallet (`accountId`)",
    handle: (c) => listCredentials(c.platform, c.query)
  },
  {
    method: "DELETE",
    path: "/auth/credentials/{id}",
    operationId: "revokeAuthCredential",
    status: 204,
    summary: "Remove a credential, signed by a session of another credential of the wallet; the last one cannot go",
    handle: (c) => revokeCredential(c.platform, c.params["id"]!, walletHeaders(c.header))
  },
  {
    method: "POST",
    path: "/auth/credentials/{id}/challenge",
    operationId: "challengeAuthCredential",
    status: 200,
    summary: "Start a sign-in with a credential: an OTP is sent (sandbox code 000000), or a passkey challenge is issued",
    body: ChallengeBody,
    handle: (c) => challengeCredential(c.platform, c.params["id"]!, c.body)
  },
  {
    method: "POST",
    path: "/auth/credentials/{id}/verify",
    operationId: "verifyAuthCredential",
    status: 200,
    summary: "Prove a credential and open a session for the client's key; OTP proofs end with a signed retry",
    body: Schema.Union(...Object.values(CredentialVerify)),
    handle: (c) => verifyCredential(c.platform, c.params["id"]!, c.body, walletHeaders(c.header))
  },
  {
    method: "GET",
    path: "/auth/sessions",
    operationId: "listAuthSessions",
    status: 200,
    summary: "List the active sessions of one wallet (`accountId`), without key material",
    handle: (c) => listSessions(c.platform, c.query)
  },
  {
    method: "DELETE",
    path: "/auth/sessions/{id}",
    operationId: "revokeAuthSession",
    status: 204,
    summary: "End a session (a signed retry)",
    handle: (c) => revokeSession(c.platform, c.params["id"]!, walletHeaders(c.header))
  },
  {
    method: "POST",
    path: "/auth/sessions/{id}/refresh",
    operationId: "refreshAuthSession",
    status: 201,
    summary: "Open a new session for a client key, signed by the session being refreshed",
    body: RefreshBody,
    handle: (c) => refreshSession(c.platform, c.params["id"]!, c.body, walletHeaders(c.header))
  },
  {
    method: "POST",
    path: "/internal-accounts/{id}/export",
    operationId: "exportInternalAccount",
    status: 200,
    summary: "Export the wallet's secret seed, sealed to the client's key (a signed retry)",
    body: ExportBody,
    handle: (c) => exportWallet(c.platform, c.params["id"]!, c.body, walletHeaders(c.header))
  },
  {
    method: "PATCH",
    path: "/internal-accounts/{id}",
    operationId: "updateInternalAccount",
    status: 200,
    summary: "Turn the wallet's privacy on or off (a signed retry)",
    body: InternalAccountUpdate,
    handle: (c) => updateInternalAccount(c.platform, c.params["id"]!, c.body, walletHeaders(c.header))
  },
  {
    method: "POST",
    path: "/sandbox/internal-accounts/{id}/processing",
    operationId: "tessera.holdAccountOperations",
    status: 200,
    summary: "Sandbox: the wallet's next signed operations answer 200 PROCESSING for a while; 0 operations lifts the hold",
    body: ProcessingHoldBody,
    handle: (c) => setProcessingHold(c.platform, c.params["id"]!, c.body)
  },
  {
    method: "POST",
    path: "/sandbox/processing",
    operationId: "tessera.holdPlatformOperations",
    status: 200,
    summary: "Sandbox: the platform's next signed operations answer 200 PROCESSING for a while; 0 operations lifts the hold",
    body: ProcessingHoldBody,
    handle: (c) => setProcessingHold(c.platform, undefined, c.body)
  }
]
