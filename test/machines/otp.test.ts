import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { Either } from "effect"
import { type OtpEvent, type OtpState, otpIssuance, reissueRefusal } from "../../packages/core/src/machines/otp.ts"
import { CHALLENGE_INTERVAL_MS, lifetimes, OTP_MAX_ATTEMPTS } from "../../packages/core/src/limits.ts"

const T0 = Date.UTC(2026, 0, 1)

type Step = OtpEvent | { readonly _tag: "Advance"; readonly ms: number }

const ISSUE: OtpEvent = { _tag: "Issue", credentialId: "AuthMethod:1", targetPrivateKey: "k", targetPublicKey: "K", code: "000000" }
const ALPHABET: ReadonlyArray<Step> = [
  ISSUE,
  { _tag: "Attempt", codeMatches: false },
  { _tag: "Attempt", codeMatches: true },
  { _tag: "Spend" },
  { _tag: "Advance", ms: lifetimes.otpMs / 2 }
]

const check = (ok: boolean, what: string) => {
  if (!ok) throw new Error(what)
}

/**
 * One step and its invariants: failedAttempts stays below OTP_MAX_ATTEMPTS in every stored
 * issuance; a wrong code is always kept and then answered (401, or 429 with the issuance
 * withdrawn at the limit); a right code changes nothing; no issuance, or an expired one, is 401.
 */
const checkedStep = (state: OtpState, step: Step, now: number): { readonly state: OtpState; readonly now: number } => {
  if (step._tag === "Advance") return { state, now: now + step.ms }
  const result = otpIssuance(state, step, now)
  if (Either.isLeft(result)) {
    check(result.left.status === 401, `${step._tag}: ${result.left.status}`)
    check(step._tag !== "Issue", "Issue is always accepted")
    if (step._tag === "Attempt") check(state === undefined || now >= state.expiresAtMs, "an Attempt on a live issuance was refused")
    return { state, now }
  }
  const t = result.right
  check(t.emit.length === 0, "OTP emits no events")
  check(t.state === undefined || t.state.failedAttempts < OTP_MAX_ATTEMPTS, `failedAttempts ${t.state?.failedAttempts}`)
  if (step._tag === "Attempt" && !step.codeMatches) {
    const failed = state!.failedAttempts + 1
    check(t.answer !== undefined, "a wrong code is answered")
    if (failed >= OTP_MAX_ATTEMPTS) check(t.state === undefined && t.answer!.status === 429, "withdrawn with 429 at the limit")
    else check(t.state?.failedAttempts === failed && t.answer!.status === 401, "counted, then 401")
  } else check(t.answer === undefined, `${step._tag} answered ${t.answer?.status}`)
  if (step._tag === "Attempt" && step.codeMatches) check(t.state === state, "a right code changes nothing")
  if (step._tag === "Issue") check(t.state?.failedAttempts === 0 && t.state.expiresAtMs === now + lifetimes.otpMs, "a fresh issuance")
  if (step._tag === "Spend") check(t.state === undefined, "spent")
  return { state: t.state, now }
}

const walk = (state: OtpState, now: number, depth: number): number => {
  if (depth === 0) return 1
  let n = 1
  for (const step of ALPHABET) {
    const after = checkedStep(state, step, now)
    n += walk(after.state, after.now, depth - 1)
  }
  return n
}

describe("OTP issuance machine", () => {
  it("every sequence of up to 7 steps keeps the invariants (exhaustive)", () => {
    expect(walk(undefined, T0, 7)).toBe((ALPHABET.length ** 8 - 1) / (ALPHABET.length - 1))
  })

  it("OTP_MAX_ATTEMPTS wrong codes in a row withdraw the issuance with 429; the ones before answer 401", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: OTP_MAX_ATTEMPTS + 3 }), (wrong) => {
        let state: OtpState = Either.getOrThrow(otpIssuance(undefined, ISSUE, T0)).state
        const answers: Array<number> = []
        for (let i = 0; i < wrong; i++) {
          const r = otpIssuance(state, { _tag: "Attempt", codeMatches: false }, T0 + i)
          if (Either.isLeft(r)) {
            answers.push(r.left.status)
            continue
          }
          answers.push(r.right.answer!.status)
          state = r.right.state
        }
        const expected = Array.from({ length: wrong }, (_, i) => (i + 1 < OTP_MAX_ATTEMPTS ? 401 : i + 1 === OTP_MAX_ATTEMPTS ? 429 : 401))
        expect(answers).toEqual(expected)
        expect(state === undefined).toBe(wrong >= OTP_MAX_ATTEMPTS)
      })
    )
  })

  it("a wrong code's answers keep today's codes and reasons", () => {
    const issued = Either.getOrThrow(otpIssuance(undefined, ISSUE, T0)).state
    expect(Either.getOrThrow(otpIssuance(issued, { _tag: "Attempt", codeMatches: false }, T0)).answer).toMatchObject({
      _tag: "UNAUTHORIZED",
      message: "OTP verification failed",
      details: { reason: "Invalid OTP code" }
    })
    expect(Either.getOrThrow(otpIssuance({ ...issued!, failedAttempts: OTP_MAX_ATTEMPTS - 1 }, { _tag: "Attempt", codeMatches: false }, T0)).answer).toMatchObject({
      _tag: "RATE_LIMITED",
      details: { reason: "OTP_ATTEMPTS_EXHAUSTED" },
      retryAfterSeconds: 1
    })
  })
})

describe("challenge spacing", () => {
  it("a challenge inside CHALLENGE_INTERVAL_MS of the last is 429 with the whole seconds left; after it, none", () => {
    fc.assert(
      fc.property(fc.option(fc.integer({ min: 0, max: 10 * CHALLENGE_INTERVAL_MS }), { nil: undefined }), fc.integer({ min: 0, max: 10 * CHALLENGE_INTERVAL_MS }), (last, now) => {
        const refusal = reissueRefusal(last === undefined ? undefined : T0 + last, T0 + now)
        const wait = last === undefined ? 0 : last + CHALLENGE_INTERVAL_MS - now
        expect(refusal === undefined).toBe(wait <= 0)
        if (refusal !== undefined) expect(refusal).toMatchObject({ status: 429, retryAfterSeconds: Math.ceil(wait / 1000), details: { retryAfterSeconds: Math.ceil(wait / 1000) } })
      })
    )
  })
})
