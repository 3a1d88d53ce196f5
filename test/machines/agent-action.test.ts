import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { Either } from "effect"
import { agentAction, type AgentActionEvent, submittedAction } from "../../packages/core/src/machines/agent-action.ts"
import type { AgentActionRecord } from "../../packages/core/src/domain/agents/agent.ts"

const T0 = Date.UTC(2026, 0, 1)
const WINDOW = 3_600_000

const base = (): Omit<AgentActionRecord, "status"> => ({
  id: "AgentAction:00000000-0000-4000-8000-000000000001",
  agentId: "Agent:00000000-0000-4000-8000-000000000002",
  customerId: "Customer:00000000-0000-4000-8000-000000000003",
  platformCustomerId: "c-3",
  type: "TRANSFER_OUT",
  spend: 100,
  expiresAt: new Date(T0 + WINDOW).toISOString(),
  createdAt: new Date(T0).toISOString(),
  updatedAt: new Date(T0).toISOString()
})

type Step = AgentActionEvent | { readonly _tag: "Advance"; readonly ms: number }
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.constant<Step>({ _tag: "Approve" }),
  fc.option(fc.string({ maxLength: 8 }), { nil: undefined }).map((reason): Step => (reason === undefined ? { _tag: "Reject" } : { _tag: "Reject", reason })),
  fc.integer({ min: 1, max: 9 }).map((n): Step => ({ _tag: "Run", transactionId: `Transaction:${n}` })),
  fc.constant<Step>({ _tag: "Fail", reason: "INSUFFICIENT_BALANCE" }),
  fc.constant<Step>({ _tag: "Abandon", reason: "AGENT_DELETED" }),
  fc.integer({ min: 0, max: WINDOW }).map((ms): Step => ({ _tag: "Advance", ms }))
)

/**
 * Plays events on an action the way the operations do, recording what ran: an accepted Run is
 * the one moment the underlying transfer or quote execution happens.
 */
const play = (start: AgentActionRecord, steps: ReadonlyArray<Step>) => {
  let state = start
  let now = T0
  let runs = 0
  let approvedInTime = start.status === "APPROVED"
  let rejected = false
  let failed = false
  for (const s of steps) {
    if (s._tag === "Advance") {
      now += s.ms
      continue
    }
    const before = state
    const r = agentAction(state, s, now)
    if (Either.isLeft(r)) {
      expect(r.left.status).toBe(409)
      continue
    }
    state = r.right.state
    if (s._tag === "Run") runs++
    if (s._tag === "Approve" && state.status === "APPROVED") approvedInTime = Date.parse(before.expiresAt) > now
    if (state.status === "REJECTED") rejected = true
    if (state.status === "FAILED") failed = true
  }
  return { state, runs, approvedInTime, rejected, failed }
}

describe("agent action machine", () => {
  it("property: an action that needs approval runs only once approved within its window, at most once, and never once rejected or failed", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        const { action } = submittedAction(base(), "APPROVAL", (a) => a)
        const { state, runs, approvedInTime, rejected, failed } = play(action, steps)
        expect(runs).toBeLessThanOrEqual(1)
        if (runs === 1) expect(approvedInTime).toBe(true)
        if (rejected) expect(runs).toBe(0)
        if (runs === 1) expect(state.status).toBe("APPROVED")
        if (failed) expect(state.transactionId).toBeUndefined()
        // A decided action refuses every decision: approving or rejecting it again is 409.
        if (state.status !== "PENDING_APPROVAL") {
          for (const e of [{ _tag: "Approve" }, { _tag: "Reject" }] as const) {
            const again = agentAction(state, e, T0)
            expect(Either.isLeft(again) && again.left._tag).toBe("CONFLICT")
          }
        }
      })
    )
  })

  it("property: an action the policy lets run at once runs exactly once and can be neither approved nor rejected", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        const { action, emit } = submittedAction(base(), "RUN", (a) => a)
        expect(emit).toEqual([])
        const { runs, rejected } = play(action, [{ _tag: "Run", transactionId: "Transaction:0" }, ...steps])
        expect(runs).toBe(1)
        expect(rejected).toBe(false)
      })
    )
  })

  it("a pending action is announced by AGENT_ACTION.PENDING_APPROVAL with its view", () => {
    const { action, emit } = submittedAction(base(), "APPROVAL", (a) => ({ id: a.id, status: a.status }))
    expect(action.status).toBe("PENDING_APPROVAL")
    expect(emit).toEqual([{ type: "AGENT_ACTION.PENDING_APPROVAL", resourceId: action.id, data: { id: action.id, status: "PENDING_APPROVAL" } }])
  })

  it("approving past the window fails the action and nothing may run; a rejection keeps its reason", () => {
    const { action } = submittedAction(base(), "APPROVAL", (a) => a)
    const late = agentAction(action, { _tag: "Approve" }, T0 + WINDOW)
    expect(Either.isRight(late) && late.right.state).toMatchObject({ status: "FAILED", failureReason: "APPROVAL_WINDOW_EXPIRED" })
    if (Either.isRight(late)) expect(Either.isLeft(agentAction(late.right.state, { _tag: "Run", transactionId: "Transaction:1" }, T0))).toBe(true)
    const no = agentAction(action, { _tag: "Reject", reason: "too much" }, T0 + 1)
    expect(Either.isRight(no) && no.right.state).toMatchObject({ status: "REJECTED", rejectionReason: "too much" })
  })

  it("abandoning a pending action (its agent deleted) fails it with the reason, or as expired past its window; a decided one is 409", () => {
    const { action } = submittedAction(base(), "APPROVAL", (a) => a)
    const gone = agentAction(action, { _tag: "Abandon", reason: "AGENT_DELETED" }, T0 + 1)
    expect(Either.isRight(gone) && gone.right.state).toMatchObject({ status: "FAILED", failureReason: "AGENT_DELETED" })
    const late = agentAction(action, { _tag: "Abandon", reason: "AGENT_DELETED" }, T0 + WINDOW)
    expect(Either.isRight(late) && late.right.state).toMatchObject({ status: "FAILED", failureReason: "APPROVAL_WINDOW_EXPIRED" })
    const ran = submittedAction(base(), "RUN", (a) => a).action
    const refused = agentAction(ran, { _tag: "Abandon", reason: "AGENT_DELETED" }, T0)
    expect(Either.isLeft(refused) && refused.left._tag).toBe("CONFLICT")
  })
})
