import { Clock, Effect, Schema } from "effect"
import { optional } from "../../domain/common.ts"
import { invalidInput } from "../../domain/field-errors.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { scaFactors, type ScaProfileRecord } from "../../domain/sca/records.ts"
import { rfc3339 } from "../../domain/time.ts"
import { SCA_CHALLENGE_MS } from "../../limits.ts"
import { factorEnrolled } from "../../machines/sca-factors.ts"
import { lockAt, scaSessionMachine } from "../../machines/sca-session.ts"
import type { Transition } from "../../machines/transition.ts"
import { SCA_PASSKEY_ORIGINS, SCA_PASSKEY_RP_ID } from "../../sandbox/sca.ts"
import { commitStep } from "../common/step.ts"
import { decodeQueryAndBody, loadProfile, loadScaCustomer, newChallenge, saveProfile } from "./customer.ts"
import { assertionOptions, judgeProof, proofFields, proofProblems, withSignCount } from "./proof.ts"

const Factor = Schema.Literal(...scaFactors)
export const ScaLoginStartRequest = Schema.Struct({ factor: Factor })
export const ScaLoginCompleteRequest = Schema.Struct({
  ...proofFields,
  factor: Factor,
  endUserIpAddress: Schema.String,
  challengeId: optional(Schema.NullOr(Schema.String))
})
export const RecordSecurityEventRequest = Schema.Struct({ eventType: Schema.Literal("RESET_PASSWORD_COMPLETED", "FAILED_LOGIN_ATTEMPT") })

/** The machines step the session or factor part of a profile; every other field rides along. */
export const asProfile = <S>(t: Transition<S>) => t as unknown as Transition<ScaProfileRecord>

/**
 * POST /sca/login/start?customerId= {factor} (DECISIONS #222): a login challenge for an enrolled
 * factor (400 otherwise). SMS_OTP answers its challengeId and expiry (the sandbox code is
 * 123456), TOTP nothing more, PASSKEY the WebAuthn request options.
 */
export const startScaLogin = (platform: PlatformRecord, query: unknown, body: unknown) =>
  Effect.gen(function* () {
    const input = yield* decodeQueryAndBody(query, body, ScaLoginStartRequest)
    const customer = yield* loadScaCustomer(platform, input.customerId)
    const factor = input.body.factor
    return yield* commitStep(
      platform.id,
      Effect.gen(function* () {
        const profile = yield* loadProfile(platform, customer.id)
        if (!factorEnrolled(profile, factor)) return yield* invalidInput([{ field: "factor", message: `${factor} is not enrolled for this customer` }])
        const now = yield* Clock.currentTimeMillis
        const challenge = yield* newChallenge({ factor, availableFactors: [factor], purpose: "LOGIN", now, expiresAtMs: now + SCA_CHALLENGE_MS })
        const transition = asProfile(yield* scaSessionMachine(profile, { _tag: "StartLogin", challenge }, now))
        return {
          transition,
          save: saveProfile(platform),
          view: (p: ScaProfileRecord) =>
            factor === "SMS_OTP"
              ? { factor, challengeId: challenge.id, expiresAt: rfc3339(challenge.expiresAtMs) }
              : factor === "TOTP"
                ? { factor }
                : { factor, passkeyOptions: assertionOptions(p, challenge), allowedOrigins: SCA_PASSKEY_ORIGINS, relyingPartyId: SCA_PASSKEY_RP_ID }
        }
      })
    )
  })

/**
 * POST /sca/login/complete?customerId=: the proof for the pending login. Right, the customer has
 * an SCA session until `sessionExpiresAt`; wrong, 400, counted as a failed login (the lockout
 * escalates); locked, 423 ACCOUNT_LOCKED (#225).
 */
export const completeScaLogin = (platform: PlatformRecord, query: unknown, body: unknown) =>
  Effect.gen(function* () {
    const input = yield* decodeQueryAndBody(query, body, ScaLoginCompleteRequest)
    const problems = proofProblems(input.body)
    if (problems.length > 0) return yield* invalidInput(problems)
    yield* loadScaCustomer(platform, input.customerId)
    return yield* commitStep(
      platform.id,
      Effect.gen(function* () {
        const profile = yield* loadProfile(platform, input.customerId)
        const now = yield* Clock.currentTimeMillis
        const judged = profile.login === undefined ? { proof: { kind: "code" as const, matches: false } } : judgeProof(profile, profile.login, input.body)
        const transition = asProfile(
          yield* scaSessionMachine(profile, { _tag: "CompleteLogin", factor: input.body.factor, challengeId: input.body.challengeId ?? undefined, proof: judged.proof }, now)
        )
        return {
          transition,
          save: (p: ScaProfileRecord) => saveProfile(platform)(withSignCount(p, judged.signCount)),
          view: (p: ScaProfileRecord) => ({ status: "SUCCESS", sessionExpiresAt: p.sessionExpiresAtMs === undefined ? null : rfc3339(p.sessionExpiresAtMs) })
        }
      })
    )
  })

/** The reference's `RecordSecurityEventResponse` at `now`. */
const securityView = (eventType: string, p: ScaProfileRecord, now: number) => {
  const lock = lockAt(p, now)
  return { eventType, suspended: lock.suspended, lockedUntil: lock.lockedUntilMs === undefined ? null : rfc3339(lock.lockedUntilMs), failedAttempts: p.failedAttempts }
}

/**
 * POST /sca/record-event?customerId= {eventType}: FAILED_LOGIN_ATTEMPT counts a failed login
 * (5 → 15 min, 6 → 30 min, 7 → 1 h, 8 → 24 h, 9+ suspended); RESET_PASSWORD_COMPLETED revokes the
 * SCA session and clears the count and any lock. Answers the resulting state (always 200: the
 * lock is what the answer reports).
 */
export const recordSecurityEvent = (platform: PlatformRecord, query: unknown, body: unknown) =>
  Effect.gen(function* () {
    const input = yield* decodeQueryAndBody(query, body, RecordSecurityEventRequest)
    yield* loadScaCustomer(platform, input.customerId)
    const eventType = input.body.eventType
    return yield* commitStep(
      platform.id,
      Effect.gen(function* () {
        const profile = yield* loadProfile(platform, input.customerId)
        const now = yield* Clock.currentTimeMillis
        const transition = asProfile(yield* scaSessionMachine(profile, { _tag: eventType === "FAILED_LOGIN_ATTEMPT" ? "FailedLogin" : "PasswordReset" }, now))
        return { transition, save: saveProfile(platform), view: (p: ScaProfileRecord) => securityView(eventType, p, now) }
      })
    )
  })
