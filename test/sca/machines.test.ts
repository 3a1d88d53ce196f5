import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { Either } from "effect"
import type { ScaChallenge, ScaFactorsState, ScaResetRecord, ScaSessionState } from "../../packages/core/src/domain/sca/records.ts"
import { OTP_MAX_ATTEMPTS, SCA_CHALLENGE_MS, SCA_LOCKOUT_MS, SCA_RESET_LIVENESS_MS, SCA_RESET_MS, SCA_SESSION_MS, SCA_SUSPEND_AT } from "../../packages/core/src/limits.ts"
import { challengeMachine, type ScaProof } from "../../packages/core/src/machines/sca-challenge.ts"
import { factorListView, scaFactorsMachine, type ScaFactorsEvent } from "../../packages/core/src/machines/sca-factors.ts"
import { resetStatusAt, scaResetMachine } from "../../packages/core/src/machines/sca-reset.ts"
import { isLocked, scaSessionMachine, sessionActive, type ScaSessionEvent } from "../../packages/core/src/machines/sca-session.ts"
import { quoteMachine, type QuoteStatus } from "../../packages/core/src/machines/quote.ts"

const T0 = Date.UTC(2026, 0, 1)
const challenge = (over: Partial<ScaChallenge> = {}): ScaChallenge => ({
  id: "ScaChallenge:1", factor: "SMS_OTP", availableFactors: ["SMS_OTP"], expiresAtMs: T0 + SCA_CHALLENGE_MS, sentAtMs: T0, failedAttempts: 0, ...over
})
const proof: fc.Arbitrary<ScaProof> = fc.oneof(
  fc.boolean().map((matches) => ({ kind: "code" as const, matches })),
  fc.boolean().map((valid) => ({ kind: "passkey" as const, valid }))
)

describe("SCA challenge machine", () => {
  it("is satisfied exactly by a right proof of its factor's kind, in time, before it was withdrawn; wrong proofs count by one up to the limit", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(proof, fc.integer({ min: 0, max: 2 * SCA_CHALLENGE_MS })), { maxLength: 12 }), fc.constantFrom<"SMS_OTP" | "TOTP" | "PASSKEY">("SMS_OTP", "TOTP", "PASSKEY"), (steps, factor) => {
        let state: ScaChallenge | undefined = challenge({ factor })
        for (const [p, at] of steps) {
          const before: ScaChallenge | undefined = state
          const r = challengeMachine(before, { _tag: "Answer", proof: p }, T0 + at)
          const fits = (factor === "PASSKEY") === (p.kind === "passkey")
          const right = p.kind === "code" ? p.matches : p.valid
          const open = before !== undefined && before.failedAttempts < OTP_MAX_ATTEMPTS && T0 + at < before.expiresAtMs
          if (!open || !fits) {
            expect(Either.isLeft(r) && r.left.status).toBe(400)
            continue
          }
          const t = Either.getOrThrow(r)
          if (right) {
            expect(t).toEqual({ state: undefined, emit: [] })
            state = undefined
          } else {
            expect(t.state!.failedAttempts).toBe(before!.failedAttempts + 1)
            expect(t.answer?.status).toBe(400)
            expect((t.answer?.details as { reason: string }).reason).toBe(t.state!.failedAttempts >= OTP_MAX_ATTEMPTS ? "SCA_CHALLENGE_WITHDRAWN" : "SCA_PROOF_INVALID")
            state = t.state
          }
          expect(state === undefined || state.failedAttempts <= OTP_MAX_ATTEMPTS).toBe(true)
        }
      })
    )
  })
})

type SessionStep = { readonly _tag: "Event"; readonly event: ScaSessionEvent } | { readonly _tag: "Advance"; readonly ms: number }
const sessionStep: fc.Arbitrary<SessionStep> = fc.oneof(
  fc.constant<SessionStep>({ _tag: "Event", event: { _tag: "StartLogin", challenge: challenge() } }),
  fc.boolean().map<SessionStep>((matches) => ({ _tag: "Event", event: { _tag: "CompleteLogin", factor: "SMS_OTP", challengeId: "ScaChallenge:1", proof: { kind: "code", matches } } })),
  fc.constantFrom<SessionStep>(
    { _tag: "Event", event: { _tag: "FailedLogin" } },
    { _tag: "Event", event: { _tag: "PasswordReset" } },
    { _tag: "Event", event: { _tag: "Revoke" } }
  ),
  fc.integer({ min: 1, max: 2 * 3_600_000 }).map<SessionStep>((ms) => ({ _tag: "Advance", ms }))
)

describe("SCA session machine", () => {
  it("a session opens only by a right login proof while unlocked; failed logins escalate by the milestones; a password reset clears all", () => {
    fc.assert(
      fc.property(fc.array(sessionStep, { maxLength: 30 }), (steps) => {
        let s: ScaSessionState = { failedAttempts: 0, suspended: false }
        let now = T0
        for (const step of steps) {
          if (step._tag === "Advance") {
            now += step.ms
            continue
          }
          // StartLogin's challenge is issued at the current time.
          const event: ScaSessionEvent = step.event._tag === "StartLogin" ? { _tag: "StartLogin", challenge: challenge({ sentAtMs: now, expiresAtMs: now + SCA_CHALLENGE_MS }) } : step.event
          const r = scaSessionMachine(s, event, now)
          const before = s
          if (Either.isLeft(r)) {
            expect(event._tag).toBe("CompleteLogin")
            if (isLocked(before, now)) expect(r.left._tag).toBe("ACCOUNT_LOCKED")
            else expect(r.left.status).toBe(400)
            continue
          }
          const t = r.right
          s = t.state
          if (sessionActive(s, now) && !sessionActive(before, now)) {
            expect(event._tag).toBe("CompleteLogin")
            expect(isLocked(before, now)).toBe(false)
            expect(s.sessionExpiresAtMs).toBe(now + SCA_SESSION_MS)
            expect(s.failedAttempts).toBe(0)
            expect(s.login).toBeUndefined()
          }
          if (event._tag === "FailedLogin" || (event._tag === "CompleteLogin" && t.answer !== undefined)) {
            expect(s.failedAttempts).toBe(before.failedAttempts + 1)
            if (s.failedAttempts >= SCA_SUSPEND_AT) expect(s.suspended).toBe(true)
            const lock = SCA_LOCKOUT_MS[s.failedAttempts]
            if (lock !== undefined && !s.suspended) expect(s.lockedUntilMs).toBeGreaterThanOrEqual(now + lock)
          }
          if (event._tag === "PasswordReset") expect(s).toEqual({ failedAttempts: 0, suspended: false })
          if (event._tag === "Revoke") expect(sessionActive(s, now)).toBe(false)
          // Suspension only ever comes from the count, and only a password reset lifts it.
          expect(s.suspended).toBe(s.failedAttempts >= SCA_SUSPEND_AT)
        }
      })
    )
  })
})

const factorsEvent: fc.Arbitrary<ScaFactorsEvent> = fc.oneof(
  fc.constant<ScaFactorsEvent>({ _tag: "StartTotp", secret: "S1", expiresAtMs: T0 + 1_000 }),
  fc.constant<ScaFactorsEvent>({ _tag: "StartPasskey", challenge: "C1", expiresAtMs: T0 + 1_000 }),
  fc.tuple(fc.constantFrom("S1", "S2"), fc.boolean()).map<ScaFactorsEvent>(([secret, codeMatches]) => ({ _tag: "ConfirmTotp", secret, codeMatches })),
  fc.constantFrom("cred-a", "cred-b").map<ScaFactorsEvent>((credentialId) => ({
    _tag: "ConfirmPasskey",
    registered: { credentialId, publicKey: "04", rpIdHash: "00", origin: "https://o", signCount: 0 },
    enrolledAt: "2026-01-01T00:00:00Z"
  })),
  fc.constant<ScaFactorsEvent>({ _tag: "ConfirmPasskey", registered: { failure: "bad" }, enrolledAt: "2026-01-01T00:00:00Z" }),
  fc.constantFrom("cred-a", "cred-b").map<ScaFactorsEvent>((credentialId) => ({ _tag: "Delete", credentialId })),
  fc.constantFrom<"SMS_OTP" | "TOTP" | "PASSKEY">("SMS_OTP", "TOTP", "PASSKEY").map<ScaFactorsEvent>((factor) => ({ _tag: "Reset", factor }))
)

describe("SCA factors machine", () => {
  it("one passkey at most (a second start is 409 PASSKEY_ALREADY_ENROLLED); enrollment only through a pending start and a right proof; SMS_OTP always listed first", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(factorsEvent, fc.integer({ min: 0, max: 2_000 })), { maxLength: 20 }), (steps) => {
        let s: ScaFactorsState = {}
        for (const [event, at] of steps) {
          const before = s
          const r = scaFactorsMachine(before, event, T0 + at)
          if (event._tag === "StartPasskey") expect(Either.isLeft(r) && r.left._tag === "PASSKEY_ALREADY_ENROLLED").toBe(before.passkey?.enrolled === true)
          if (Either.isRight(r)) {
            s = r.right.state
            if (s.passkey?.enrolled === true && before.passkey?.enrolled !== true) {
              expect(event._tag).toBe("ConfirmPasskey")
              expect(before.passkey).toBeDefined()
              expect(T0 + at).toBeLessThan((before.passkey as { expiresAtMs: number }).expiresAtMs)
            }
            if (s.totp?.enrolled === true && before.totp?.enrolled !== true) {
              expect(event).toMatchObject({ _tag: "ConfirmTotp", codeMatches: true, secret: before.totp!.secret })
            }
            if (event._tag === "Delete") expect(before.passkey?.enrolled === true && before.passkey.credential.credentialId === event.credentialId).toBe(true)
          } else if (event._tag === "Delete") expect(r.left.status).toBe(404)
          const list = factorListView(s).factors.map((f) => f.factor)
          expect(list[0]).toBe("SMS_OTP")
          expect(list.filter((f) => f === "PASSKEY").length).toBeLessThanOrEqual(1)
        }
      })
    )
  })
})

describe("2FA reset machine", () => {
  it("INITIATED, then LIVENESS_PASSED, then EXPIRED as time passes; complete only while LIVENESS_PASSED, and COMPLETED is final", () => {
    const reset: ScaResetRecord = { id: "ScaReset:1", customerId: "Customer:1", factor: "TOTP", startedAtMs: T0, expiresAtMs: T0 + SCA_RESET_MS }
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 * SCA_RESET_MS }), fc.integer({ min: 0, max: 2 * SCA_RESET_MS }), (a, b) => {
        const order = ["INITIATED", "LIVENESS_PASSED", "EXPIRED"]
        const [early, late] = a <= b ? [a, b] : [b, a]
        expect(order.indexOf(resetStatusAt(reset, T0 + early))).toBeLessThanOrEqual(order.indexOf(resetStatusAt(reset, T0 + late)))
        const r = scaResetMachine(reset, { _tag: "Complete" }, T0 + early)
        const window = early >= SCA_RESET_LIVENESS_MS && early < SCA_RESET_MS
        expect(Either.isRight(r)).toBe(window)
        if (Either.isRight(r)) {
          expect(resetStatusAt(r.right.state, T0 + late)).toBe("COMPLETED")
          expect(Either.isLeft(scaResetMachine(r.right.state, { _tag: "Complete" }, T0 + late))).toBe(true)
        }
      })
    )
  })
})

describe("quote machine and SCA", () => {
  it("only a PENDING quote can be held for authorization; held, it cannot execute until authorized back to PENDING", () => {
    const statuses: ReadonlyArray<QuoteStatus> = ["PENDING", "PENDING_AUTHORIZATION", "PROCESSING", "COMPLETED", "FAILED", "EXPIRED"]
    fc.assert(
      fc.property(fc.constantFrom(...statuses), fc.integer({ min: 0, max: 600_000 }), (status, at) => {
        const q = { status, expiresAtMs: T0 + 300_000 }
        const now = T0 + at
        const live = now < q.expiresAtMs
        const held = quoteMachine(q, { _tag: "RequireAuthorization" }, now)
        expect(Either.isRight(held)).toBe(status === "PENDING" && live)
        if (Either.isRight(held)) {
          expect(held.right.state.status).toBe("PENDING_AUTHORIZATION")
          expect(Either.isLeft(quoteMachine(held.right.state, { _tag: "Execute" }, now))).toBe(true)
          const authorized = Either.getOrThrow(quoteMachine(held.right.state, { _tag: "Authorize" }, now))
          expect(Either.getOrThrow(quoteMachine(authorized.state, { _tag: "Execute" }, now)).state.status).toBe("PROCESSING")
        }
      })
    )
  })
})
