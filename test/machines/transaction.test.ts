import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { Either } from "effect"
import type { OutcomePlan, PlanStep } from "../../packages/core/src/domain/transactions/outcome-plan.ts"
import type { Funds, TransactionRecord, TransactionStatus, TransactionType } from "../../packages/core/src/domain/transactions/transaction.ts"
import { outgoingStatuses } from "../../packages/core/src/domain/transactions/transaction.ts"
import { fundsDelta, isSettled, TERMINAL, transactionStep, type TransactionEvent } from "../../packages/core/src/machines/transaction.ts"
import { incomingApprovalOutcome, QUOTE_OUTCOME_SUFFIXES, quoteOutcome, transferOutcome } from "../../packages/core/src/sandbox/outcomes.ts"

const NOW = Date.parse("2026-01-01T00:00:00Z")
const AMOUNT = 12_550

const created = (type: TransactionType): TransactionRecord => ({
  id: "Transaction:00000000-0000-4000-8000-000000000001",
  type,
  status: "CREATED",
  direction: type === "OUTGOING" ? "DEBIT" : "CREDIT",
  destination: { destinationType: "ACCOUNT", accountId: "ExternalAccount:00000000-0000-4000-8000-000000000002" },
  customerId: "Customer:00000000-0000-4000-8000-000000000003",
  platformCustomerId: "c-1",
  createdAt: new Date(NOW).toISOString(),
  updatedAt: new Date(NOW).toISOString(),
  ledger: { accountId: "InternalAccount:00000000-0000-4000-8000-000000000004", amount: AMOUNT, currency: "USD", funds: "NONE" },
  senderIdentifiers: [],
  receiverIdentifiers: []
})

const plans: ReadonlyArray<readonly [TransactionType, OutcomePlan]> = [
  ...["002", "003", "004", "005", "123"].flatMap((s) => [["OUTGOING", transferOutcome("OUTGOING", s)] as const, ["INCOMING", transferOutcome("INCOMING", s)] as const]),
  ...[...QUOTE_OUTCOME_SUFFIXES, "999"].map((s) => ["OUTGOING", quoteOutcome(s)] as const)
]

/** The account and the world as a ledger sees them: money only moves between these four. */
interface Books {
  available: number
  held: number
  incoming: number
  external: number
}
const move = (books: Books, from: Funds, to: Funds) => {
  const d = fundsDelta(from, to, AMOUNT)
  for (const k of ["available", "held", "incoming", "external"] as const) books[k] += d[k]
}
const total = (b: Books) => b.available + b.held + b.incoming + b.external

/** Applies a plan's steps as the due runner would, recording every webhook and every ledger movement. */
const runPlan = (type: TransactionType, plan: OutcomePlan, books: Books) => {
  let t = created(type)
  let clock = NOW
  const webhooks: Array<string> = []
  for (const step of plan.steps) {
    clock += step.afterMs
    const r = transactionStep(t, { _tag: "Apply", step }, clock)
    if (Either.isLeft(r)) throw new Error(`${plan.name}: ${r.left.message}`)
    move(books, t.ledger!.funds, r.right.state.ledger!.funds)
    t = r.right.state
    webhooks.push(...r.right.emit.map((e) => e.type))
    if (step.awaitApproval === true) {
      const approved = transactionStep(t, { _tag: "Approve" }, clock)
      if (Either.isLeft(approved)) throw new Error("approve refused")
      t = approved.right.state
    }
  }
  return { t, webhooks }
}

describe("transaction machine: every sandbox outcome", () => {
  it.each(plans.map(([type, plan]) => [plan.name, type, plan] as const))("%s is accepted step by step, ends settled and conserves money", (_, type, plan) => {
    const books: Books = { available: AMOUNT, held: 0, incoming: 0, external: AMOUNT }
    const { t, webhooks } = runPlan(type, plan, books)
    expect(isSettled(t)).toBe(true)
    expect(total(books)).toBe(2 * AMOUNT)
    // Nothing stays held or in flight once settled, and no balance went below zero.
    expect(books.held).toBe(0)
    expect(books.incoming).toBe(0)
    expect(books.available).toBeGreaterThanOrEqual(0)
    // One webhook per visible change, named in the transaction's family.
    const family = type === "OUTGOING" ? "OUTGOING_PAYMENT." : "INCOMING_PAYMENT."
    expect(webhooks.every((w) => w.startsWith(family))).toBe(true)
    expect(webhooks[0]).toBe(`${family}PENDING`)
  })

  it("the incoming approval outcome waits for the platform, then credits", () => {
    const books: Books = { available: 0, held: 0, incoming: 0, external: AMOUNT }
    const { t } = runPlan("INCOMING", incomingApprovalOutcome, books)
    expect(t.status).toBe("COMPLETED")
    expect(books).toEqual({ available: AMOUNT, held: 0, incoming: 0, external: 0 })
  })

  it("a bank return turns COMPLETED into FAILED and refunds: 005 quote", () => {
    const books: Books = { available: AMOUNT, held: 0, incoming: 0, external: 0 }
    const { t, webhooks } = runPlan("OUTGOING", quoteOutcome("005"), books)
    expect(webhooks).toEqual([
      "OUTGOING_PAYMENT.PENDING",
      "OUTGOING_PAYMENT.PROCESSING",
      "OUTGOING_PAYMENT.COMPLETED",
      "OUTGOING_PAYMENT.FAILED",
      "OUTGOING_PAYMENT.REFUND_PENDING",
      "OUTGOING_PAYMENT.REFUND_COMPLETED"
    ])
    expect(t).toMatchObject({ status: "FAILED", failureReason: "PAYOUT_RETURNED", refund: { status: "COMPLETED", reason: "TRANSACTION_FAILED" } })
    expect(books.available).toBe(AMOUNT)
  })
})

const statuses: ReadonlyArray<TransactionStatus> = ["CREATED", "PENDING", "PENDING_AUTHORIZATION", "PROCESSING", "COMPLETED", "REJECTED", "FAILED", "REFUNDED", "EXPIRED"]
const fundsValues: ReadonlyArray<Funds> = ["NONE", "HELD", "SENT", "RELEASED", "RETURNED", "INCOMING", "RECEIVED"]
const stepArb: fc.Arbitrary<PlanStep> = fc.oneof(
  fc.record({ afterMs: fc.constant(0), status: fc.constantFrom(...statuses), funds: fc.constantFrom(...fundsValues) }, { requiredKeys: ["afterMs", "status"] }),
  fc.record(
    { afterMs: fc.constant(0), refund: fc.constantFrom("PENDING" as const, "COMPLETED" as const, "FAILED" as const), funds: fc.constantFrom(...fundsValues) },
    { requiredKeys: ["afterMs", "refund"] }
  )
)
const eventArb: fc.Arbitrary<TransactionEvent> = fc.oneof(
  stepArb.map((step) => ({ _tag: "Apply" as const, step })),
  fc.constantFrom<TransactionEvent>({ _tag: "Approve" }, { _tag: "Reject" }, { _tag: "Cancel" }, { _tag: "Confirm" })
)

describe("transaction machine: properties over any sequence of events", () => {
  it("terminal statuses never change (COMPLETED only to FAILED), a settled refund never changes, an OUTGOING one shows only outgoing statuses, money is conserved", () => {
    fc.assert(
      fc.property(fc.constantFrom<TransactionType>("OUTGOING", "INCOMING"), fc.array(eventArb, { maxLength: 30 }), (type, events) => {
        let t = created(type)
        const books: Books = { available: AMOUNT, held: 0, incoming: 0, external: AMOUNT }
        for (const e of events) {
          const r = transactionStep(t, e, NOW)
          if (Either.isLeft(r)) continue
          const after = r.right.state
          if (TERMINAL.has(t.status) && after.status !== t.status) expect(t.status === "COMPLETED" && after.status === "FAILED").toBe(true)
          if (t.refund !== undefined && t.refund.status !== "PENDING") expect(after.refund).toEqual(t.refund)
          if (type === "OUTGOING" && after.status !== "CREATED") expect(outgoingStatuses.has(after.status)).toBe(true)
          move(books, t.ledger!.funds, after.ledger!.funds)
          expect(total(books)).toBe(2 * AMOUNT)
          expect(books.available).toBeGreaterThanOrEqual(0)
          t = after
        }
      }),
      { numRuns: 2_000 }
    )
  })

  it("cancel is refused once processing started, and approve/reject only while an approval is awaited", () => {
    const processing = { ...created("OUTGOING"), status: "PROCESSING" as const }
    const cancel = transactionStep(processing, { _tag: "Cancel" }, NOW)
    expect(Either.isLeft(cancel) && cancel.left._tag).toBe("TRANSACTION_NOT_CANCELLABLE")
    const approve = transactionStep(processing, { _tag: "Approve" }, NOW)
    expect(Either.isLeft(approve) && approve.left._tag).toBe("TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL")
    const pending = { ...created("OUTGOING"), status: "PENDING" as const, ledger: { ...created("OUTGOING").ledger!, funds: "HELD" as const } }
    const cancelled = transactionStep(pending, { _tag: "Cancel" }, NOW)
    expect(Either.isRight(cancelled) && cancelled.right.state).toMatchObject({ status: "FAILED", ledger: { funds: "RELEASED" }, refund: { reason: "USER_CANCELLATION" } })
  })
})
