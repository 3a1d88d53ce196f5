import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { Either } from "effect"
import { type QuoteEvent, quoteMachine, type QuoteState, quoteStatusAt, quoteStatuses, quoteStatusForTransaction } from "../../packages/core/src/machines/quote.ts"
import { QUOTE_LIFETIME_MS } from "../../packages/core/src/limits.ts"

const T0 = Date.UTC(2026, 0, 1)

type Step = QuoteEvent | { readonly _tag: "Advance"; readonly ms: number }

const events: ReadonlyArray<QuoteEvent> = [
  { _tag: "Execute" },
  { _tag: "Authorize" },
  { _tag: "Settle", outcome: "COMPLETED" },
  { _tag: "Settle", outcome: "FAILED" },
  { _tag: "Expire" }
]
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.constantFrom(...events),
  fc.integer({ min: 0, max: 2 * QUOTE_LIFETIME_MS }).map((ms) => ({ _tag: "Advance" as const, ms }))
)
const start: fc.Arbitrary<QuoteState> = fc.constantFrom<QuoteState["status"]>("PENDING", "PENDING_AUTHORIZATION").map((status) => ({ status, expiresAtMs: T0 + QUOTE_LIFETIME_MS }))

const terminal = new Set(["FAILED", "EXPIRED"])

describe("quote machine", () => {
  it("an unexecuted quote reads EXPIRED exactly once expiresAt passed", () => {
    const q: QuoteState = { status: "PENDING", expiresAtMs: T0 + QUOTE_LIFETIME_MS }
    expect(quoteStatusAt(q, T0 + QUOTE_LIFETIME_MS - 1)).toBe("PENDING")
    expect(quoteStatusAt(q, T0 + QUOTE_LIFETIME_MS)).toBe("EXPIRED")
    // An executed quote never expires: its transaction decides.
    expect(quoteStatusAt({ ...q, status: "PROCESSING" }, T0 + 10 * QUOTE_LIFETIME_MS)).toBe("PROCESSING")
  })

  it("execute: PENDING before expiry starts processing; expired or executed is 409 with the reason", () => {
    const q: QuoteState = { status: "PENDING", expiresAtMs: T0 + 1000 }
    const ok = quoteMachine(q, { _tag: "Execute" }, T0)
    expect(Either.isRight(ok) && ok.right.state.status).toBe("PROCESSING")
    const late = quoteMachine(q, { _tag: "Execute" }, T0 + 1000)
    expect(Either.isLeft(late) && [late.left.status, late.left._tag, late.left.details?.["reason"]]).toEqual([409, "CONFLICT", "QUOTE_EXPIRED"])
    const twice = quoteMachine({ ...q, status: "PROCESSING" }, { _tag: "Execute" }, T0)
    expect(Either.isLeft(twice) && twice.left.details?.["reason"]).toBe("QUOTE_ALREADY_EXECUTED")
  })

  it("a completed quote can still fail (a bank return) but a failed one never completes", () => {
    const done: QuoteState = { status: "COMPLETED", expiresAtMs: T0 }
    const returned = quoteMachine(done, { _tag: "Settle", outcome: "FAILED" }, T0)
    expect(Either.isRight(returned) && returned.right.state.status).toBe("FAILED")
    expect(Either.isLeft(quoteMachine({ ...done, status: "FAILED" }, { _tag: "Settle", outcome: "COMPLETED" }, T0))).toBe(true)
  })

  it("over any sequence: statuses stay in the reference's enum, executes at most once, terminal states stay, refusals are 409", () => {
    fc.assert(
      fc.property(start, fc.array(step, { maxLength: 30 }), (initial, steps) => {
        let state = initial
        let now = T0
        let executions = 0
        for (const s of steps) {
          if (s._tag === "Advance") {
            now += s.ms
            continue
          }
          const before = quoteStatusAt(state, now)
          const result = quoteMachine(state, s, now)
          if (Either.isLeft(result)) {
            expect(result.left.status).toBe(409)
            continue
          }
          const after = result.right.state
          expect(result.right.emit).toEqual([])
          expect(quoteStatuses).toContain(after.status)
          expect(after.expiresAtMs).toBe(state.expiresAtMs)
          if (terminal.has(before)) expect(quoteStatusAt(after, now)).toBe(before)
          if (s._tag === "Execute") {
            executions++
            expect(before).toBe("PENDING")
            expect(now).toBeLessThan(state.expiresAtMs)
          }
          state = after
        }
        expect(executions).toBeLessThanOrEqual(1)
      })
    )
  })

  it("a quote follows its transaction's end states", () => {
    expect(quoteStatusForTransaction("COMPLETED")).toBe("COMPLETED")
    expect(quoteStatusForTransaction("FAILED")).toBe("FAILED")
    expect(quoteStatusForTransaction("PROCESSING")).toBeUndefined()
    expect(quoteStatusForTransaction("PENDING")).toBeUndefined()
  })
})
