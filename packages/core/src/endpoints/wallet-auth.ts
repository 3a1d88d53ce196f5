import { Schema } from "effect"
import { ChallengeBody, CredentialCreate, CredentialVerify, RefreshBody } from "../domain/wallet-auth/inputs.ts"
import { challengeCredential, verifyCredential } from "../operations/wallet-auth/credential-auth.ts"
import { createCredential, listCredentials, revokeCredential } from "../operations/wallet-auth/credentials.ts"
import { listSessions, refreshSession, revokeSession } from "../operations/wallet-auth/sessions.ts"
import { endpoint } from "./define.ts"

/** The one wallet a credential or session list is about; the programs check its id. */
const AccountQuery = Schema.Struct({ accountId: Schema.String })

/**
 * Embedded-wallet credentials, sessions and signed retries (spec section 2). Signed endpoints
 * answer with the status the protocol decides (202, 201, 204, 200 PROCESSING); `status` here is
 * the success status of the reference operation.
 */
export const walletAuthEndpoints = [
  endpoint({
    group: "wallet-auth",
    name: "createCredential",
    method: "POST",
    path: "/auth/credentials",
    operationId: "createAuthCredential",
    status: 201,
    summary: "Add an email OTP, SMS OTP, OAuth or passkey credential to a wallet; once the wallet has one, a signed retry",
    body: Schema.Union(...Object.values(CredentialCreate)),
    signedRetry: true,
    run: (r) => createCredential(r.platform, r.body, r.headers, r.target)
  }),
  endpoint({
    group: "wallet-auth",
    name: "listCredentials",
    method: "GET",
    path: "/auth/credentials",
    operationId: "listAuthCredentials",
    status: 200,
    summary: "List the credentials of one wallet (`accountId`)",
    query: AccountQuery,
    run: (r) => listCredentials(r.platform, r.query as Record<string, string>)
  }),
  endpoint({
    group: "wallet-auth",
    name: "revokeCredential",
    method: "DELETE",
    path: "/auth/credentials/{id}",
    operationId: "revokeAuthCredential",
    status: 204,
    summary: "Remove a credential, signed by a session of another credential of the wallet; the last one cannot go",
    signedRetry: true,
    run: (r) => revokeCredential(r.platform, r.params.id, r.headers, r.target)
  }),
  endpoint({
    group: "wallet-auth",
    name: "challengeCredential",
    method: "POST",
    path: "/auth/credentials/{id}/challenge",
    operationId: "challengeAuthCredential",
    status: 200,
    summary: "Start a sign-in with a credential: an OTP is sent (sandbox code 000000), or a passkey challenge is issued",
    body: ChallengeBody,
    optionalBody: true,
    run: (r) => challengeCredential(r.platform, r.params.id, r.body)
  }),
  endpoint({
    group: "wallet-auth",
    name: "verifyCredential",
    method: "POST",
    path: "/auth/credentials/{id}/verify",
    operationId: "verifyAuthCredential",
    status: 200,
    summary: "Prove a credential and open a session for the client's key; OTP proofs end with a signed retry",
    body: Schema.Union(...Object.values(CredentialVerify)),
    signedRetry: true,
    run: (r) => verifyCredential(r.platform, r.params.id, r.body, r.headers, r.target)
  }),
  endpoint({
    group: "wallet-auth",
    name: "listSessions",
    method: "GET",
    path: "/auth/sessions",
    operationId: "listAuthSessions",
    status: 200,
    summary: "List the active sessions of one wallet (`accountId`), without key material",
    query: AccountQuery,
    run: (r) => listSessions(r.platform, r.query as Record<string, string>)
  }),
  endpoint({
    group: "wallet-auth",
    name: "revokeSession",
    method: "DELETE",
    path: "/auth/sessions/{id}",
    operationId: "revokeAuthSession",
    status: 204,
    summary: "End a session (a signed retry)",
    signedRetry: true,
    run: (r) => revokeSession(r.platform, r.params.id, r.headers, r.target)
  }),
  endpoint({
    group: "wallet-auth",
    name: "refreshSession",
    method: "POST",
    path: "/auth/sessions/{id}/refresh",
    operationId: "refreshAuthSession",
    status: 201,
    summary: "Open a new session for a client key, signed by the session being refreshed",
    body: RefreshBody,
    signedRetry: true,
    run: (r) => refreshSession(r.platform, r.params.id, r.body, r.headers, r.target)
  })
]
