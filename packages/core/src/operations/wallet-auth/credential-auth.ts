import { Clock, Effect, Either } from "effect"
import { AuthMethods } from "../../domain/collections.ts"
import { authMethodView } from "../../domain/wallet-auth/auth-method.ts"
import { decodeBody, invalidInput } from "../../domain/field-errors.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { reply } from "../../domain/reply.ts"
import { ChallengeBody, CredentialVerify, decodeByType } from "../../domain/wallet-auth/inputs.ts"
import { Store } from "../../ports/store.ts"
import { defineSignedOperation } from "../../signed-retry/registry.ts"
import { type SignedHeaders, signedRetry } from "../../signed-retry/signed-retry.ts"
import type { SignedTarget } from "../../signed-retry/target.ts"
import { verifyOauth } from "./oauth.ts"
import { issueOtp, prepareOtpLogin } from "./otp.ts"
import { passkeyChallenge, verifyPasskey } from "./passkey.ts"
import { openSession } from "./sessions.ts"
import { loadCredential } from "./wallet-context.ts"
import { reissueRefusal } from "../../machines/otp.ts"


/** POST /auth/credentials/{id}/challenge: a fresh OTP (OTP types) or a passkey challenge. */
export const challengeCredential = (platform: PlatformRecord, id: string, body: unknown) =>
  Effect.gen(function* () {
    const store = yield* Store
    const credential = yield* loadCredential(platform, id)
    const input = body === undefined ? Either.right({}) : decodeBody(ChallengeBody)(body)
    if (Either.isLeft(input)) return yield* input.left
    if (credential.type === "OAUTH")
      return yield* invalidInput([{ field: "id", message: "OAUTH credentials have no challenge step; verify with a fresh token" }])
    const clientPublicKey = (input.right as { clientPublicKey?: string }).clientPublicKey
    if (credential.type === "PASSKEY" && clientPublicKey === undefined)
      return yield* invalidInput([{ field: "clientPublicKey", message: "is required for a PASSKEY challenge" }])
    return yield* store.transaction(
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const fresh = yield* loadCredential(platform, id)
        const tooSoon = reissueRefusal(fresh.lastChallengeAtMs, now)
        if (tooSoon !== undefined) return yield* tooSoon
        const stamped = { ...fresh, lastChallengeAtMs: now }
        yield* store.put(AuthMethods, platform.id, stamped)
        if (credential.type === "PASSKEY") return yield* passkeyChallenge(platform, stamped, clientPublicKey!)
        return { ...authMethodView(stamped), otpEncryptionTargetBundle: yield* issueOtp(platform, stamped) }
      })
    )
  })

const decodeVerify = decodeByType(CredentialVerify)

export const otpLoginOp = defineSignedOperation("otpLogin", (platform: PlatformRecord, input: { readonly credentialId: string; readonly tek: string }) =>
  Effect.gen(function* () {
    const credential = yield* loadCredential(platform, input.credentialId)
    // The TEK private key is the session signing key: nothing to return but the session.
    return reply(200, yield* openSession(platform, credential, input.tek))
  })
)

/**
 * POST /auth/credentials/{id}/verify. OTP: 202 with the verification token to stamp with the
 * TEK, then the signed retry answers the Session. OAUTH and PASSKEY: one call, 200 AuthSession.
 */
export const verifyCredential = (platform: PlatformRecord, id: string, body: unknown, headers: SignedHeaders, target: SignedTarget) =>
  Effect.gen(function* () {
    const credential = yield* loadCredential(platform, id)
    const decoded = decodeVerify(body)
    if (Either.isLeft(decoded)) return yield* decoded.left
    const input = decoded.right
    if (input.type !== credential.type)
      return yield* invalidInput([{ field: "type", message: `must be ${credential.type}, the type of this credential` }])
    switch (input.type) {
      case "EMAIL_OTP":
      case "SMS_OTP":
        return yield* signedRetry({
          platform,
          accountId: credential.accountId,
          ...target,
          body,
          headers,
          operation: otpLoginOp,
          signer: (bound: { readonly tek: string }) => ({ _tag: "Key", publicKey: bound.tek }),
          prepare: prepareOtpLogin(platform, credential, input.encryptedOtpBundle)
        })
      case "OAUTH":
        return yield* (yield* Store).transaction(verifyOauth(platform, credential, input.oidcToken, input.clientPublicKey))
      case "PASSKEY":
        return yield* verifyPasskey(platform, credential, input.assertion, headers.requestId)
    }
  })
