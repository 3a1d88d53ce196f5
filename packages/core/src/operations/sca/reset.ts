import { Clock, Effect, Option, Schema } from "effect"
import { Customers, ScaResets } from "../../domain/collections.ts"
import { RateLimited } from "../../domain/errors.ts"
import { invalidInput } from "../../domain/field-errors.ts"
import { isId, makeId } from "../../domain/ids.ts"
import { referenceNotFound } from "../../domain/not-found.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { reply, NO_CONTENT } from "../../domain/reply.ts"
import { scaFactors, type ScaProfileRecord, type ScaResetRecord } from "../../domain/sca/records.ts"
import { rfc3339 } from "../../domain/time.ts"
import { SCA_RESET_MAX_STARTS, SCA_RESET_MS, SCA_RESET_WINDOW_MS } from "../../limits.ts"
import { factorEnrolled, scaFactorsMachine } from "../../machines/sca-factors.ts"
import { resetStatusAt, scaResetMachine } from "../../machines/sca-reset.ts"
import { scaSessionMachine } from "../../machines/sca-session.ts"
import { Ids } from "../../ports/ids.ts"
import { Store } from "../../ports/store.ts"
import { resetVerificationLink } from "../../sandbox/sca.ts"
import { decodeQueryAndBody, loadProfile, loadScaCustomer, saveProfile } from "./customer.ts"

export const TwoFactorResetStartRequest = Schema.Struct({ factor: Schema.Literal(...scaFactors) })
export const TwoFactorResetCompleteRequest = Schema.Struct({
  mobile: Schema.optionalWith(Schema.Struct({ countryCode: Schema.String.pipe(Schema.pattern(/^\+[1-9]\d{0,3}$/)), number: Schema.String.pipe(Schema.pattern(/^\d{4,14}$/)) }), { exact: true })
})

/**
 * POST /sca/factors/reset?customerId= {factor} (DECISIONS #227): opens a reset of an enrolled
 * factor with the sandbox's liveness handles; at most 5 starts per customer in 24 hours (429).
 */
export const startTwoFactorReset = (platform: PlatformRecord, query: unknown, body: unknown) =>
  Effect.gen(function* () {
    const input = yield* decodeQueryAndBody(query, body, TwoFactorResetStartRequest)
    const customer = yield* loadScaCustomer(platform, input.customerId)
    const ids = yield* Ids
    const id = makeId("ScaReset", yield* ids.uuid)
    const token = Buffer.from(yield* ids.bytes(24)).toString("base64url")
    const store = yield* Store
    return yield* store.transaction(
      Effect.gen(function* () {
        const profile = yield* loadProfile(platform, customer.id)
        const now = yield* Clock.currentTimeMillis
        if (!factorEnrolled(profile, input.body.factor)) return yield* invalidInput([{ field: "factor", message: `${input.body.factor} is not enrolled for this customer` }])
        const recent = profile.resetStarts.filter((t) => now - t < SCA_RESET_WINDOW_MS)
        if (recent.length >= SCA_RESET_MAX_STARTS)
          return yield* new RateLimited({
            message: `At most ${SCA_RESET_MAX_STARTS} factor resets per customer in 24 hours`,
            details: { reason: "RESET_LIMIT" },
            retryAfterSeconds: Math.ceil((recent[0]! + SCA_RESET_WINDOW_MS - now) / 1000)
          })
        const reset: ScaResetRecord = { id, customerId: customer.id, factor: input.body.factor, startedAtMs: now, expiresAtMs: now + SCA_RESET_MS }
        yield* store.put(ScaResets, platform.id, reset)
        yield* saveProfile(platform)({ ...profile, resetStarts: [...recent, now] })
        return reply(201, { resetId: id, livenessAccessToken: `sandbox-liveness-${token}`, verificationLink: resetVerificationLink(id), expiresAt: rfc3339(reset.expiresAtMs) })
      })
    )
  })

const loadReset = (platform: PlatformRecord, customerId: string, resetId: string) =>
  Effect.gen(function* () {
    const found = isId("ScaReset", resetId) ? yield* (yield* Store).get(ScaResets, platform.id, resetId) : Option.none()
    if (Option.isNone(found) || found.value.customerId !== customerId) return yield* referenceNotFound("ScaReset", resetId)
    return found.value
  })

const resetView = (r: ScaResetRecord, profile: ScaProfileRecord, now: number) => ({
  status: resetStatusAt(r, now),
  factor: r.factor,
  // The replacement factor: PENDING until the customer enrolls it again; none for SMS_OTP.
  enrollmentStatus: r.factor === "SMS_OTP" ? null : r.completedAtMs !== undefined && factorEnrolled(profile, r.factor) ? "COMPLETED" : "PENDING",
  expiresAt: rfc3339(r.expiresAtMs),
  completedAt: r.completedAtMs === undefined ? null : rfc3339(r.completedAtMs)
})

/** GET /sca/factors/reset/{resetId}?customerId=: the reset's status, read off the clock. */
export const getTwoFactorResetStatus = (platform: PlatformRecord, resetId: string, query: unknown) =>
  Effect.gen(function* () {
    const { customerId } = yield* decodeQueryAndBody(query, undefined)
    yield* loadScaCustomer(platform, customerId)
    const reset = yield* loadReset(platform, customerId, resetId)
    return resetView(reset, yield* loadProfile(platform, customerId), yield* Clock.currentTimeMillis)
  })

/**
 * POST /sca/factors/reset/{resetId}/complete?customerId=: once liveness passed (400 before), the
 * factor is cleared and the SCA session revoked; an SMS_OTP reset needs `mobile`, which becomes
 * the customer's phone number.
 */
export const completeTwoFactorReset = (platform: PlatformRecord, resetId: string, query: unknown, body: unknown) =>
  Effect.gen(function* () {
    const input = yield* decodeQueryAndBody(query, body, TwoFactorResetCompleteRequest, false)
    const customer = yield* loadScaCustomer(platform, input.customerId)
    const store = yield* Store
    yield* store.transaction(
      Effect.gen(function* () {
        const reset = yield* loadReset(platform, customer.id, resetId)
        const now = yield* Clock.currentTimeMillis
        const completed = yield* scaResetMachine(reset, { _tag: "Complete" }, now)
        const mobile = input.body?.mobile
        if (reset.factor === "SMS_OTP") {
          if (mobile === undefined) return yield* invalidInput([{ field: "mobile", message: "is required to complete an SMS_OTP reset" }])
          const phoneNumber = `${mobile.countryCode}${mobile.number}`
          if (!/^\+[1-9]\d{1,14}$/.test(phoneNumber)) return yield* invalidInput([{ field: "mobile.number", message: "with countryCode must form an E.164 number" }])
          // Re-read inside the transaction: a customer PATCH since the check above must not be lost.
          const current = yield* loadScaCustomer(platform, customer.id)
          yield* store.put(Customers, platform.id, { ...current, phoneNumber, updatedAt: rfc3339(now) })
        }
        const profile = yield* loadProfile(platform, customer.id)
        const cleared = yield* scaFactorsMachine(profile, { _tag: "Reset", factor: reset.factor }, now)
        const revoked = yield* scaSessionMachine(cleared.state as ScaProfileRecord, { _tag: "Revoke" }, now)
        yield* saveProfile(platform)(revoked.state as ScaProfileRecord)
        yield* store.put(ScaResets, platform.id, completed.state)
      })
    )
    return NO_CONTENT
  })
