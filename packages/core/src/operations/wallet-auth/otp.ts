import { Clock, Effect, Option } from "effect"
import { OtpIssuances } from "../../domain/collections.ts"
import type { AuthMethodRecord } from "../../domain/wallet-auth/auth-method.ts"
import { RateLimited, Unauthorized } from "../../domain/errors.ts"
import { invalidInput } from "../../domain/field-errors.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { lifetimes } from "../../limits.ts"
import { bytesToBase64Url, utf8 } from "../../crypto/encoding.ts"
import { openOtpBundle, otpTargetBundle, parseSealedJson } from "../../crypto/bundles.ts"
import { normalisePublicKey, signP256 } from "../../crypto/p256.ts"
import { constantTimeEqual, sha256Hex } from "../../crypto/secrets.ts"
import { Notifier } from "../../ports/notifier.ts"
import { Store } from "../../ports/store.ts"
import { type Binding } from "../../signed-retry/signed-retry.ts"
import { freshKeyPair, quorumKey } from "./wallet-context.ts"
import { OTP_SANDBOX_CODE } from "../../sandbox/literals.ts"
import { OTP_MAX_ATTEMPTS } from "../../limits.ts"

/**
 * Issues a fresh OTP for an EMAIL_OTP or SMS_OTP credential: a new HPKE target key (replacing
 * any earlier one), delivery through the Notifier hook, and the target bundle for the client.
 */
export const issueOtp = (platform: PlatformRecord, credential: AuthMethodRecord) =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const target = yield* freshKeyPair
    yield* (yield* Store).put(OtpIssuances, platform.id, {
      id: credential.id,
      targetPrivateKey: target.privateKey,
      targetPublicKey: target.publicKeyUncompressed,
      code: OTP_SANDBOX_CODE,
      expiresAtMs: now + lifetimes.otpMs,
      failedAttempts: 0
    })
    yield* (yield* Notifier).deliverOtp({
      scope: platform.id,
      channel: credential.type === "SMS_OTP" ? "SMS" : "EMAIL",
      to: credential.nickname,
      credentialId: credential.id
    })
    return otpTargetBundle(target.publicKeyUncompressed, yield* quorumKey)
  })

const refusedOtp = (reason: string) => new Unauthorized({ message: "OTP verification failed", details: { reason } })

/**
 * The verification token the client stamps with its TEK (DECISIONS #16): a compact ES256 JWS
 * by the server's wallet key, naming the TEK and the request it answers.
 */
const verificationToken = (quorumPrivateKey: string, tek: string, requestId: string, nowMs: number) => {
  const header = bytesToBase64Url(utf8(JSON.stringify({ alg: "ES256", kid: "tessera" })))
  const iat = Math.floor(nowMs / 1000)
  const payload = bytesToBase64Url(
    utf8(JSON.stringify({ sub: bytesToBase64Url(Buffer.from(sha256Hex(tek), "hex")), tek, jti: requestId, iat, exp: iat + 3600 }))
  )
  const signature = bytesToBase64Url(signP256(quorumPrivateKey, utf8(`${header}.${payload}`), "ieee-p1363"))
  return `${header}.${payload}.${signature}`
}

/**
 * First leg of an OTP verify: open the bundle with the pending issuance's key, check the code,
 * and bind the TEK it carries. A wrong code counts against the issuance, even though the request fails.
 */
export const prepareOtpLogin = (platform: PlatformRecord, credential: AuthMethodRecord, encryptedOtpBundle: string) =>
  Effect.gen(function* () {
    const store = yield* Store
    const sealed = parseSealedJson(encryptedOtpBundle)
    if (!sealed.ok) return yield* invalidInput([{ field: "encryptedOtpBundle", message: sealed.reason }])
    const now = yield* Clock.currentTimeMillis
    const found = yield* store.get(OtpIssuances, platform.id, credential.id)
    if (Option.isNone(found) || now >= found.value.expiresAtMs) return yield* refusedOtp("No pending OTP for this credential")
    const issuance = found.value
    const opened = openOtpBundle(issuance.targetPrivateKey, sealed)
    if (opened === undefined) return yield* refusedOtp("OTP bundle cannot be opened with the current encryption target")
    const tek = normalisePublicKey(opened.publicKey)
    if (tek === undefined) return yield* invalidInput([{ field: "encryptedOtpBundle", message: "public_key is not a P-256 key" }])
    if (!constantTimeEqual(utf8(opened.otpCode), utf8(issuance.code))) {
      const failedAttempts = issuance.failedAttempts + 1
      // Recorded in its own write: the failing request must still count.
      yield* store.transaction(
        failedAttempts >= OTP_MAX_ATTEMPTS
          ? store.remove(OtpIssuances, platform.id, credential.id)
          : store.put(OtpIssuances, platform.id, { ...issuance, failedAttempts })
      )
      if (failedAttempts >= OTP_MAX_ATTEMPTS)
        return yield* new RateLimited({
          message: "Too many wrong OTP codes; request a new challenge",
          details: { reason: "OTP_ATTEMPTS_EXHAUSTED" },
          retryAfterSeconds: 1
        })
      return yield* refusedOtp("Invalid OTP code")
    }
    const quorum = yield* quorumKey
    const binding: Binding<{ readonly credentialId: string; readonly tek: string }> = {
      input: { credentialId: credential.id, tek: tek.compressed },
      type: credential.type,
      payload: (requestId, nowMs) => verificationToken(quorum.privateKey, tek.compressed, requestId, nowMs),
      // One issuance, one login: spent with the challenge, so a code cannot serve two TEKs.
      commit: Effect.flatMap(store.remove(OtpIssuances, platform.id, credential.id), (removed) =>
        removed ? Effect.void : Effect.fail(refusedOtp("No pending OTP for this credential"))
      )
    }
    return binding
  })
