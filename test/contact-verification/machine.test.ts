import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { Either } from "effect"
import { type ChannelState, type ContactEvent, contactChannel } from "../../packages/core/src/machines/contact-verification.ts"
import { lifetimes, OTP_MAX_ATTEMPTS } from "../../packages/core/src/limits.ts"

const T0 = Date.UTC(2026, 0, 1)

type Step = ContactEvent | { readonly _tag: "Advance"; readonly ms: number }

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ _tag: fc.constant("Send" as const), hasAddress: fc.boolean() }),
  fc.record({ _tag: fc.constant("Confirm" as const), hasAddress: fc.boolean(), codeMatches: fc.boolean() }),
  fc.constant({ _tag: "Reset" as const }),
  fc.record({ _tag: fc.constant("Advance" as const), ms: fc.integer({ min: 0, max: 2 * lifetimes.otpMs }) })
)

const initial: fc.Arbitrary<ChannelState | undefined> = fc.constantFrom(undefined, { status: "PENDING" as const })

interface Outcome {
  readonly state: ChannelState | undefined
  readonly now: number
  readonly status?: number
}

/** Runs the steps as an operation would: a refusal keeps the state, a deferred answer keeps the next state. */
const run = (start: ChannelState | undefined, steps: ReadonlyArray<Step>): Array<Outcome & { readonly step: Step; readonly before: ChannelState | undefined }> => {
  let state = start
  let now = T0
  const out: Array<Outcome & { readonly step: Step; readonly before: ChannelState | undefined }> = []
  for (const s of steps) {
    const before = state
    if (s._tag === "Advance") now += s.ms
    else {
      const r = contactChannel(state, s, now)
      if (Either.isLeft(r)) {
        out.push({ step: s, before, state, now, status: r.left.status })
        continue
      }
      expect(r.right.emit).toEqual([])
      state = r.right.state
      out.push({ step: s, before, state, now, ...(r.right.answer === undefined ? {} : { status: r.right.answer.status }) })
      continue
    }
    out.push({ step: s, before, state, now })
  }
  return out
}

describe("contact-verification channel machine", () => {
  it("becomes VERIFIED only by a right code confirming a live code that was sent", () => {
    fc.assert(
      fc.property(initial, fc.array(step, { maxLength: 30 }), (start, steps) => {
        for (const o of run(start, steps))
          if (o.before?.status !== "VERIFIED" && o.state?.status === "VERIFIED") {
            expect(o.step).toMatchObject({ _tag: "Confirm", codeMatches: true, hasAddress: true })
            expect(o.before?.pending).toBeDefined()
            expect(o.now).toBeLessThan(o.before!.pending!.expiresAtMs)
            expect(o.status).toBeUndefined()
          }
      })
    )
  })

  it("a wrong code never verifies and is always answered 400 or 409", () => {
    fc.assert(
      fc.property(initial, fc.array(step, { maxLength: 30 }), (start, steps) => {
        for (const o of run(start, steps))
          if (o.step._tag === "Confirm" && !o.step.codeMatches) {
            expect(o.state?.status).toBe(o.before?.status)
            expect([400, 409]).toContain(o.status)
          }
      })
    )
  })

  it("a channel that is not required stays absent and answers every send or confirm with 409", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 20 }), (steps) => {
        for (const o of run(undefined, steps)) {
          expect(o.state).toBeUndefined()
          if (o.step._tag === "Send" || o.step._tag === "Confirm") expect(o.status).toBe(409)
        }
      })
    )
  })

  it("keeps failed attempts below the limit; the limit-th wrong code withdraws the code", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: OTP_MAX_ATTEMPTS + 3 }), (wrong) => {
        const steps: Array<Step> = [{ _tag: "Send", hasAddress: true }]
        for (let i = 0; i < wrong; i++) steps.push({ _tag: "Confirm", hasAddress: true, codeMatches: false })
        const outcomes = run({ status: "PENDING" }, steps)
        const last = outcomes.at(-1)!
        expect(outcomes.every((o) => (o.state?.pending?.failedAttempts ?? 0) < OTP_MAX_ATTEMPTS)).toBe(true)
        expect(last.status).toBe(400)
        expect(last.state?.pending === undefined).toBe(wrong >= OTP_MAX_ATTEMPTS)
        // After the withdrawal even the right code is refused until a resend.
        const after = contactChannel(last.state, { _tag: "Confirm", hasAddress: true, codeMatches: true }, last.now)
        expect(Either.isLeft(after) || after.right.state?.status === "VERIFIED").toBe(true)
        expect(Either.isLeft(after)).toBe(wrong >= OTP_MAX_ATTEMPTS)
      })
    )
  })

  it("a resend replaces the code: fresh lifetime, no failed attempts", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: OTP_MAX_ATTEMPTS - 1 }), fc.integer({ min: 0, max: lifetimes.otpMs * 3 }), (wrong, later) => {
        const steps: Array<Step> = [{ _tag: "Send", hasAddress: true }]
        for (let i = 0; i < wrong; i++) steps.push({ _tag: "Confirm", hasAddress: true, codeMatches: false })
        steps.push({ _tag: "Advance", ms: later }, { _tag: "Send", hasAddress: true })
        const last = run({ status: "PENDING" }, steps).at(-1)!
        expect(last.state).toEqual({ status: "PENDING", pending: { expiresAtMs: T0 + later + lifetimes.otpMs, failedAttempts: 0 } })
      })
    )
  })

  it("an expired code is refused with 400 even when right; a reset drops the code and verification", () => {
    const sent = Either.getOrThrow(contactChannel({ status: "PENDING" }, { _tag: "Send", hasAddress: true }, T0)).state
    const late = Either.getOrThrow(contactChannel(sent, { _tag: "Confirm", hasAddress: true, codeMatches: true }, T0 + lifetimes.otpMs))
    expect(late.answer).toMatchObject({ status: 400, details: { reason: "CODE_EXPIRED" } })
    expect(late.state).toEqual({ status: "PENDING" })
    const verified = Either.getOrThrow(contactChannel(sent, { _tag: "Confirm", hasAddress: true, codeMatches: true }, T0 + 1)).state
    expect(verified).toEqual({ status: "VERIFIED" })
    expect(Either.getOrThrow(contactChannel(verified, { _tag: "Reset" }, T0 + 2)).state).toEqual({ status: "PENDING" })
    expect(contactChannel(verified, { _tag: "Send", hasAddress: true }, T0 + 2)).toMatchObject({ left: { status: 409, details: { reason: "ALREADY_VERIFIED" } } })
    expect(contactChannel({ status: "PENDING" }, { _tag: "Confirm", hasAddress: true, codeMatches: true }, T0)).toMatchObject({
      left: { status: 400, details: { reason: "NO_PENDING_CODE" } }
    })
  })
})
