import { createHash } from "node:crypto"
import { Clock, Effect, Option } from "effect"
import { AuthMethods, PasskeyChallenges } from "../../domain/collections.ts"
import type { AuthMethodRecord } from "../../domain/wallet-auth/auth-method.ts"
import { authMethodView } from "../../domain/wallet-auth/auth-method.ts"
import { RequestIdMissing, Unauthorized } from "../../domain/errors.ts"
import { invalidInput } from "../../domain/field-errors.ts"
import { isId, makeId } from "../../domain/ids.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { rfc3339 } from "../../domain/time.ts"
import { lifetimes } from "../../limits.ts"
import { utf8 } from "../../crypto/encoding.ts"
import { verifyAssertion, verifyRegistration } from "../../crypto/webauthn.ts"
import { Ids } from "../../ports/ids.ts"
import { Store } from "../../ports/store.ts"
import { openSession } from "./sessions.ts"
import { SANDBOX_PASSKEY_SIGNATURE } from "../../sandbox/literals.ts"

/** Registration: the attestation must answer the platform's challenge (400 with the reason otherwise). */
export const registerPasskey = (input: {
  readonly challenge: string
  readonly attestation: { readonly credentialId: string; readonly clientDataJson: string; readonly attestationObject: string }
}) => {
  const checked = verifyRegistration({ challenge: input.challenge, ...input.attestation })
  return checked.ok ? Effect.succeed(checked.value) : Effect.fail(invalidInput([{ field: "attestation", message: checked.reason }]))
}

/**
 * PASSKEY /challenge {clientPublicKey}: the challenge is the lowercase hex SHA-256 of the
 * session-creation body that carries the client key; the key is not sent again on /verify.
 */
export const passkeyChallenge = (platform: PlatformRecord, credential: AuthMethodRecord, clientPublicKey: string) =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const requestId = makeId("Request", yield* (yield* Ids).uuid)
    const sessionBody = JSON.stringify({
      type: "ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2",
      organizationId: platform.id,
      requestId,
      timestampMs: String(now),
      parameters: { targetPublicKey: clientPublicKey, userId: credential.accountId }
    })
    const challenge = createHash("sha256").update(sessionBody).digest("hex")
    const expiresAtMs = now + lifetimes.signedRetryChallengeMs
    yield* (yield* Store).put(PasskeyChallenges, platform.id, {
      id: requestId,
      authMethodId: credential.id,
      accountId: credential.accountId,
      challenge,
      clientPublicKey,
      expiresAtMs,
      consumed: false
    })
    return { ...authMethodView(credential), credentialId: credential.credentialId!, challenge, requestId, expiresAt: rfc3339(expiresAtMs) }
  })

const refused = (reason: string) => new Unauthorized({ message: "Passkey assertion rejected", details: { reason } })

/** PASSKEY verify: the assertion over the pending challenge named by `Request-Id` → 200 AuthSession. */
export const verifyPasskey = (
  platform: PlatformRecord,
  credential: AuthMethodRecord,
  assertion: { readonly credentialId: string; readonly clientDataJson: string; readonly authenticatorData: string; readonly signature: string },
  requestId: string | undefined
) =>
  Effect.gen(function* () {
    if (requestId === undefined) return yield* new RequestIdMissing({ message: "Request-Id from /challenge is required", details: {} })
    const store = yield* Store
    return yield* store.transaction(
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const found = isId("Request", requestId) ? yield* store.get(PasskeyChallenges, platform.id, requestId) : Option.none()
        if (Option.isNone(found) || found.value.authMethodId !== credential.id) return yield* refused("REQUEST_ID_UNKNOWN")
        const pending = found.value
        if (pending.consumed) return yield* refused("REQUEST_ID_ALREADY_USED")
        if (now >= pending.expiresAtMs) return yield* refused("CHALLENGE_EXPIRED")
        const passkey = credential.passkey!
        let signCount = passkey.signCount
        // The legacy literal skips WebAuthn verification (DECISIONS #19); the credential must still match.
        if (assertion.signature !== SANDBOX_PASSKEY_SIGNATURE) {
          const checked = verifyAssertion({
            passkey: { ...passkey, credentialId: credential.credentialId! },
            challengeBytes: utf8(pending.challenge),
            ...assertion
          })
          if (!checked.ok) return yield* refused(checked.reason)
          signCount = checked.value.signCount
        } else if (assertion.credentialId.replace(/=+$/, "") !== credential.credentialId) return yield* refused("assertion credentialId is not this credential")
        yield* store.put(PasskeyChallenges, platform.id, { ...pending, consumed: true })
        const updated: AuthMethodRecord = { ...credential, passkey: { ...passkey, signCount } }
        yield* store.put(AuthMethods, platform.id, updated)
        return yield* openSession(platform, updated, pending.clientPublicKey)
      })
    )
  })
