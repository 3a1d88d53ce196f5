import { base32nopad } from "@scure/base"
import { Clock, Effect, Schema } from "effect"
import { bytesToBase64Url, utf8 } from "../../crypto/encoding.ts"
import { constantTimeEqual } from "../../crypto/secrets.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import type { ScaProfileRecord } from "../../domain/sca/records.ts"
import { rfc3339 } from "../../domain/time.ts"
import { SCA_ENROLLMENT_MS } from "../../limits.ts"
import { factorListView, scaFactorsMachine } from "../../machines/sca-factors.ts"
import { NO_CONTENT } from "../../domain/reply.ts"
import { Ids } from "../../ports/ids.ts"
import { SANDBOX_SCA_CODE } from "../../sandbox/literals.ts"
import { SCA_PASSKEY_ORIGINS, SCA_PASSKEY_RP_ID } from "../../sandbox/sca.ts"
import { commitStep } from "../common/step.ts"
import { decodeQueryAndBody, loadProfile, loadScaCustomer, requireSession, saveProfile } from "./customer.ts"
import { checkRegistration, registrationOptions } from "./proof.ts"
import { asProfile } from "./login.ts"

export const ScaFactorEnrollRequest = Schema.Struct({ type: Schema.Literal("TOTP", "PASSKEY") })
export const ScaFactorConfirmRequest = Schema.Union(
  Schema.Struct({ type: Schema.Literal("TOTP"), secret: Schema.String, code: Schema.String }),
  Schema.Struct({ type: Schema.Literal("PASSKEY"), origin: Schema.String, credential: Schema.Record({ key: Schema.String, value: Schema.Unknown }) })
)

/** GET /sca/factors?customerId=: SMS_OTP always, TOTP and PASSKEY once enrolled. */
export const listScaFactors = (platform: PlatformRecord, query: unknown) =>
  Effect.gen(function* () {
    const { customerId } = yield* decodeQueryAndBody(query, undefined)
    yield* loadScaCustomer(platform, customerId)
    return factorListView(yield* loadProfile(platform, customerId))
  })

/**
 * POST /sca/factors?customerId= {type}: starts an enrollment (DECISIONS #221): a TOTP secret
 * with its provisioning URI, or WebAuthn registration options. Changing factors needs an open
 * SCA session (#226).
 */
export const startScaFactorEnrollment = (platform: PlatformRecord, query: unknown, body: unknown) =>
  Effect.gen(function* () {
    const input = yield* decodeQueryAndBody(query, body, ScaFactorEnrollRequest)
    const customer = yield* loadScaCustomer(platform, input.customerId)
    const ids = yield* Ids
    const secretBytes = yield* ids.bytes(20)
    return yield* commitStep(
      platform.id,
      Effect.gen(function* () {
        const profile = yield* requireSession(platform, customer.id)
        const now = yield* Clock.currentTimeMillis
        const expiresAtMs = now + SCA_ENROLLMENT_MS
        if (input.body.type === "TOTP") {
          const secretBase32Encoded = base32nopad.encode(secretBytes)
          const transition = asProfile(yield* scaFactorsMachine(profile, { _tag: "StartTotp", secret: secretBase32Encoded, expiresAtMs }, now))
          const label = encodeURIComponent(`Tessera:${customer.email ?? customer.id}`)
          return {
            transition,
            save: saveProfile(platform),
            view: (): object => ({
              type: "TOTP" as const,
              secret: secretBase32Encoded,
              secretBase32Encoded,
              totpUri: `otpauth://totp/${label}?secret=${secretBase32Encoded}&issuer=Tessera`
            })
          }
        }
        const challenge = bytesToBase64Url(secretBytes)
        const transition = asProfile(yield* scaFactorsMachine(profile, { _tag: "StartPasskey", challenge, expiresAtMs }, now))
        return {
          transition,
          save: saveProfile(platform),
          view: (): object => ({ type: "PASSKEY" as const, options: registrationOptions(challenge, customer.id), allowedOrigins: SCA_PASSKEY_ORIGINS, relyingPartyId: SCA_PASSKEY_RP_ID })
        }
      })
    )
  })

/**
 * POST /sca/factors/confirm?customerId=: TOTP with the start's secret and the code (sandbox:
 * 123456), answering recovery codes once; PASSKEY with the credential, checked as a WebAuthn
 * registration against the start's challenge and origin, answering the factor.
 */
export const confirmScaFactorEnrollment = (platform: PlatformRecord, query: unknown, body: unknown) =>
  Effect.gen(function* () {
    const input = yield* decodeQueryAndBody(query, body, ScaFactorConfirmRequest)
    yield* loadScaCustomer(platform, input.customerId)
    const codes = yield* (yield* Ids).bytes(48)
    return yield* commitStep(
      platform.id,
      Effect.gen(function* () {
        // Confirming needs the session too: one revoked since the start (a password reset, a 2FA
        // reset) must not let a pending enrollment finish.
        const profile = yield* requireSession(platform, input.customerId)
        const now = yield* Clock.currentTimeMillis
        const b = input.body
        if (b.type === "TOTP") {
          const transition = asProfile(yield* scaFactorsMachine(profile, { _tag: "ConfirmTotp", secret: b.secret, codeMatches: constantTimeEqual(utf8(b.code), utf8(SANDBOX_SCA_CODE)) }, now))
          return { transition, save: saveProfile(platform), view: (): object => ({ type: "TOTP" as const, recoveryCodes: recoveryCodes(codes) }) }
        }
        if (profile.passkey === undefined || profile.passkey.enrolled)
          return { transition: asProfile(yield* scaFactorsMachine(profile, { _tag: "ConfirmPasskey", registered: { failure: "" }, enrolledAt: rfc3339(now) }, now)), save: saveProfile(platform), view: passkeyView }
        const registered = checkRegistration(profile.passkey.challenge, b.origin, b.credential)
        const transition = asProfile(yield* scaFactorsMachine(profile, { _tag: "ConfirmPasskey", registered, enrolledAt: rfc3339(now) }, now))
        return { transition, save: saveProfile(platform), view: passkeyView }
      })
    )
  })

const passkeyView = (p: ScaProfileRecord): object => ({
  type: "PASSKEY" as const,
  factor: { factor: "PASSKEY" as const, credentialId: p.passkey?.enrolled === true ? p.passkey.credential.credentialId : "", name: "Passkey" }
})

/** Four one-time recovery codes `XXXX-XXXX-XXXX`, twelve of the given random bytes each (none shared). */
const recoveryCodes = (bytes: Uint8Array) => {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
  const chars = [...bytes].map((b) => alphabet[b % alphabet.length]!)
  return Array.from({ length: 4 }, (_, i) => {
    const c = chars.slice(i * 12, i * 12 + 12).join("")
    return `${c.slice(0, 4)}-${c.slice(4, 8)}-${c.slice(8, 12)}`
  })
}

/** DELETE /sca/factors/{credentialId}?customerId=: removes the passkey (404 for any other id); needs a session. */
export const deleteScaFactor = (platform: PlatformRecord, credentialId: string, query: unknown) =>
  Effect.gen(function* () {
    const { customerId } = yield* decodeQueryAndBody(query, undefined)
    yield* loadScaCustomer(platform, customerId)
    yield* commitStep(
      platform.id,
      Effect.gen(function* () {
        const profile = yield* requireSession(platform, customerId)
        const transition = asProfile(yield* scaFactorsMachine(profile, { _tag: "Delete", credentialId }, yield* Clock.currentTimeMillis))
        return { transition, save: saveProfile(platform), view: () => undefined }
      })
    )
    return NO_CONTENT
  })
