import { Clock, Effect, Option } from "effect"
import { OtpIssuances } from "../../domain/collections.ts"
import type { AuthMethodRecord } from "../../domain/wallet-auth/auth-method.ts"
import { invalidInput } from "../../domain/field-errors.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { bytesToBase64Url, utf8 } from "../../crypto/encoding.ts"
import { openOtpBundle, otpTargetBundle, parseSealedJson } from "../../crypto/bundles.ts"
import { normalisePublicKey, signP256 } from "../../crypto/p256.ts"
import { constantTimeEqual, sha256Hex } from "../../crypto/secrets.ts"
import { Notifier } from "../../ports/notifier.ts"
import { Store } from "../../ports/store.ts"
import { type Binding } from "../../signed-retry/signed-retry.ts"
import { freshKeyPair, quorumKey } from "./wallet-context.ts"
import { OTP_SANDBOX_CODE } from "../../sandbox/literals.ts"
import { type OtpState, otpIssuance, pendingIssuance, refusedOtp } from "../../machines/otp.ts"
import { commitStep } from "../common/step.ts"

/**
 * Issues a fresh OTP for an EMAIL_OTP or SMS_OTP credential: a new HPKE target key (replacing
 * any earlier one), delivery through the Notifier hook, and the target bundle for the client.
 */
export const issueOtp = (platform: PlatformRecord, credential: AuthMethodRecord) =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const target = yield* freshKeyPair
    const issued = yield* otpIssuance(
      undefined,
      { _tag: "Issue", credentialId: credential.id, targetPrivateKey: target.privateKey, targetPublicKey: target.publicKeyUncompressed, code: OTP_SANDBOX_CODE },
      now
    )
    yield* saveIssuance(platform, credential.id)(issued.state)
    yield* (yield* Notifier).deliverOtp({
      scope: platform.id,
      channel: credential.type === "SMS_OTP" ? "SMS" : "EMAIL",
      to: credential.nickname,
      credentialId: credential.id
    })
    return otpTargetBundle(target.publicKeyUncompressed, yield* quorumKey)
  })

/** Stores an issuance state: a pending issuance is put, none is removed. */
const saveIssuance = (platform: PlatformRecord, credentialId: string) => (state: OtpState) =>
  Effect.flatMap(Store, (store) => (state === undefined ? Effect.asVoid(store.remove(OtpIssuances, platform.id, credentialId)) : store.put(OtpIssuances, platform.id, state)))

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
    const found = Option.getOrUndefined(yield* store.get(OtpIssuances, platform.id, credential.id))
    const issuance = yield* pendingIssuance(found, now)
    const opened = openOtpBundle(issuance.targetPrivateKey, sealed)
    if (opened === undefined) return yield* refusedOtp("OTP bundle cannot be opened with the current encryption target")
    const tek = normalisePublicKey(opened.publicKey)
    if (tek === undefined) return yield* invalidInput([{ field: "encryptedOtpBundle", message: "public_key is not a P-256 key" }])
    const attempt = yield* otpIssuance(issuance, { _tag: "Attempt", codeMatches: constantTimeEqual(utf8(opened.otpCode), utf8(issuance.code)) }, now)
    // A wrong code is saved before the request fails: the failing request must still count.
    if (attempt.answer !== undefined)
      yield* commitStep(
        platform.id,
        Effect.gen(function* () {
          // Stepped again on the issuance as stored now, under the write permit: concurrent wrong
          // codes each count, and a wrong code for a replaced issuance does not touch the new one.
          const latest = yield* pendingIssuance(Option.getOrUndefined(yield* store.get(OtpIssuances, platform.id, credential.id)), now)
          if (latest.targetPrivateKey !== issuance.targetPrivateKey)
            return yield* refusedOtp("OTP bundle cannot be opened with the current encryption target")
          const transition = yield* otpIssuance(latest, { _tag: "Attempt", codeMatches: false }, now)
          return { transition, save: saveIssuance(platform, credential.id), view: () => undefined }
        })
      )
    const quorum = yield* quorumKey
    const binding: Binding<{ readonly credentialId: string; readonly tek: string }> = {
      input: { credentialId: credential.id, tek: tek.compressed },
      type: credential.type,
      payload: (requestId, nowMs) => verificationToken(quorum.privateKey, tek.compressed, requestId, nowMs),
      // One issuance, one login: spent with the challenge, so a code cannot serve two TEKs.
      commit: Effect.gen(function* () {
        const current = Option.getOrUndefined(yield* store.get(OtpIssuances, platform.id, credential.id))
        const spent = yield* otpIssuance(current, { _tag: "Spend" }, yield* Clock.currentTimeMillis)
        yield* saveIssuance(platform, credential.id)(spent.state)
      })
    }
    return binding
  })
