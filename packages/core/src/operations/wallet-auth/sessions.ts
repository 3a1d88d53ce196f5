import { Clock, Effect, Either, Option } from "effect"
import { Sessions } from "../../domain/collections.ts"
import type { AuthMethodRecord } from "../../domain/wallet-auth/auth-method.ts"
import { decodeBody, invalidInput } from "../../domain/field-errors.ts"
import { isId, makeId } from "../../domain/ids.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { NO_CONTENT, reply } from "../../domain/reply.ts"
import { isActiveSession, type SessionRecord, sessionView } from "../../domain/wallet-auth/session.ts"
import { openedSession, refreshRefusal, requireActive, session } from "../../machines/session.ts"
import { RefreshBody } from "../../domain/wallet-auth/inputs.ts"
import { sealSessionKey } from "../../crypto/bundles.ts"
import { normalisePublicKey } from "../../crypto/p256.ts"
import { Ids } from "../../ports/ids.ts"
import { Store } from "../../ports/store.ts"
import { accountSession } from "../../signed-retry/authorize.ts"
import { activityPayload } from "../../signed-retry/canonical.ts"
import { reconcileAccount } from "../common/reconcile.ts"
import { defineSignedOperation } from "../../signed-retry/registry.ts"
import { boundAccount, type SignedHeaders, signedRetry } from "../../signed-retry/signed-retry.ts"
import type { SignedTarget } from "../../signed-retry/target.ts"
import { ephemeralSecret, freshKeyPair, loadCredential, loadSession } from "./wallet-context.ts"

/**
 * Opens a session for a credential (notes-wallet-auth §6.1). A compressed `clientPublicKey` is
 * the session key itself (client-held); an uncompressed one asks for the legacy flow, where the
 * server makes the key pair and seals the private key to the client, once.
 */
export const openSession = (platform: PlatformRecord, credential: AuthMethodRecord, clientPublicKey: string) =>
  Effect.gen(function* () {
    const store = yield* Store
    const now = yield* Clock.currentTimeMillis
    const client = normalisePublicKey(clientPublicKey)
    if (client === undefined) return yield* invalidInput([{ field: "clientPublicKey", message: "is not a P-256 point" }])
    const legacy = !/^0[23]/.test(clientPublicKey)
    const generated = legacy ? yield* freshKeyPair : undefined
    const session: SessionRecord = openedSession(
      {
        id: makeId("Session", yield* (yield* Ids).uuid),
        accountId: credential.accountId,
        authMethodId: credential.id,
        type: credential.type,
        nickname: credential.nickname,
        publicKey: generated?.publicKey ?? client.compressed
      },
      now
    )
    yield* store.put(Sessions, platform.id, session)
    const sealed =
      generated === undefined
        ? undefined
        : sealSessionKey(Buffer.from(client.uncompressed, "hex"), Buffer.from(generated.privateKey, "hex"), yield* ephemeralSecret)
    return sessionView(session, sealed)
  })

const missingAccountId = () => invalidInput([{ field: "accountId", message: "is required: an InternalAccount:<uuid> id" }])

/** GET /auth/sessions?accountId=: the account's active sessions, no key material; not paginated. */
export const listSessions = (platform: PlatformRecord, query: Record<string, string>) =>
  Effect.gen(function* () {
    const accountId = query["accountId"]
    if (accountId === undefined || !isId("InternalAccount", accountId)) return yield* missingAccountId()
    yield* reconcileAccount(platform, accountId)
    const now = yield* Clock.currentTimeMillis
    const sessions = yield* (yield* Store).findBy(Sessions, platform.id, "accountId", accountId)
    return { data: sessions.filter((s) => isActiveSession(s, now)).map((s) => sessionView(s)) }
  })

const activeSession = (platform: PlatformRecord, id: string) =>
  Effect.gen(function* () {
    const session = yield* loadSession(platform, id)
    // Revoking or refreshing an inactive session is 404: safe to repeat (notes §7.3).
    return yield* requireActive(session, yield* Clock.currentTimeMillis)
  })

export const revokeSessionOp = defineSignedOperation("revokeSession", (platform: PlatformRecord, input: { readonly sessionId: string }) =>
  Effect.gen(function* () {
    const current = yield* loadSession(platform, input.sessionId)
    const revoked = yield* session(current, { _tag: "Revoke" }, yield* Clock.currentTimeMillis)
    yield* (yield* Store).put(Sessions, platform.id, revoked.state)
    return NO_CONTENT
  })
)

/** DELETE /auth/sessions/{id}: signed by any active session of the account, itself included. */
export const revokeSession = (platform: PlatformRecord, id: string, headers: SignedHeaders, target: SignedTarget) =>
  Effect.gen(function* () {
    const bound = yield* boundAccount(platform, headers)
    // A retry is judged by its request id; only a first call needs the session to be active now.
    const session = Option.isSome(bound) ? yield* loadSession(platform, id) : yield* activeSession(platform, id)
    return yield* signedRetry({
      platform,
      accountId: Option.getOrElse(bound, () => session.accountId),
      ...target,
      body: undefined,
      headers,
      operation: revokeSessionOp,
      signer: () => accountSession(),
      prepare: Effect.succeed({
        input: { sessionId: id },
        type: session.type,
        payload: (requestId: string, nowMs: number) =>
          activityPayload({
            type: "ACTIVITY_TYPE_DELETE_API_KEYS",
            organizationId: platform.id,
            requestId,
            nowMs,
            parameters: { apiKeyIds: [id], userId: session.accountId }
          })
      })
    })
  })

export const refreshSessionOp = defineSignedOperation(
  "refreshSession",
  (platform: PlatformRecord, input: { readonly sessionId: string; readonly clientPublicKey: string }) =>
    Effect.gen(function* () {
      const session = yield* activeSession(platform, input.sessionId)
      const credential = yield* loadCredential(platform, session.authMethodId)
      return reply(201, yield* openSession(platform, credential, input.clientPublicKey))
    })
)

/**
 * POST /auth/sessions/{id}/refresh {clientPublicKey}: stamped by the session being refreshed;
 * answers a new session (201). The old session runs to its own expiry, as sessions accumulate.
 */
export const refreshSession = (platform: PlatformRecord, id: string, body: unknown, headers: SignedHeaders, target: SignedTarget) =>
  Effect.gen(function* () {
    const input = decodeBody(RefreshBody)(body)
    if (Either.isLeft(input)) return yield* input.left
    const session = yield* loadSession(platform, id)
    const refusal = refreshRefusal(session, yield* Clock.currentTimeMillis)
    if (refusal !== undefined) return yield* refusal
    return yield* signedRetry({
      platform,
      accountId: session.accountId,
      ...target,
      body,
      headers,
      operation: refreshSessionOp,
      signer: () => ({ _tag: "Session", sessionId: id }),
      prepare: Effect.succeed({
        input: { sessionId: id, clientPublicKey: input.right.clientPublicKey },
        payload: (requestId: string, nowMs: number) =>
          activityPayload({
            type: "ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2",
            organizationId: platform.id,
            requestId,
            nowMs,
            parameters: { targetPublicKey: input.right.clientPublicKey }
          })
      })
    })
  })
