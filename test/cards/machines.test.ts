import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { Either } from "effect"
import type { CardRecord, CardState } from "../../packages/core/src/domain/cards/card.ts"
import type { CardTransactionRecord } from "../../packages/core/src/domain/cards/card-transaction.ts"
import { currencies } from "../../packages/core/src/domain/internal-accounts/internal-account.ts"
import { canRequest, cardStep, type CardEvent, FUNDING_SOURCE_CHANGE, patchTransitions, STATE_CHANGE } from "../../packages/core/src/machines/card.ts"
import { type CardMove, cardTransactionStep, type CardTransactionEvent, start, type StartKind } from "../../packages/core/src/machines/card-transaction.ts"
import type { DecisioningOutcome } from "../../packages/core/src/sandbox/cards.ts"

const NOW = Date.parse("2026-05-08T14:00:00Z")
const states: ReadonlyArray<CardState> = ["PENDING_KYC", "PROCESSING", "ACTIVE", "FROZEN", "CLOSED"]
const requested = ["ACTIVE", "FROZEN", "CLOSED"] as const

const card = (state: CardState, over: Partial<CardRecord> = {}): CardRecord => ({
  id: "Card:00000000-0000-4000-8000-000000000001",
  cardholderId: "Customer:00000000-0000-4000-8000-000000000001",
  platformCardId: "card-1",
  state,
  stateReason: state === "CLOSED" ? "CLOSED_BY_PLATFORM" : null,
  brand: "VISA",
  form: "VIRTUAL",
  last4: "4242",
  expMonth: 5,
  expYear: 2029,
  fundingSources: ["InternalAccount:00000000-0000-4000-8000-000000000001"],
  maxSpendPerTransaction: null,
  currency: "USDB",
  createdAt: "2026-05-08T14:00:00.000Z",
  updatedAt: "2026-05-08T14:00:00.000Z",
  ...over
})

const codeOf = (r: ReturnType<typeof cardStep>) => (Either.isLeft(r) ? r.left._tag : "OK")

describe("the card machine (spec, Card state)", () => {
  it.each(patchTransitions)("row %s → %s: the state changes and CARD.STATE_CHANGE is emitted", (from, to) => {
    const r = cardStep(card(from), { _tag: "Update", state: to as "ACTIVE" | "FROZEN" | "CLOSED" }, NOW)
    expect(Either.isRight(r)).toBe(true)
    const t = Either.getOrThrow(r)
    expect(t.state.state).toBe(to)
    expect(t.state.stateReason).toBe(to === "CLOSED" ? "CLOSED_BY_PLATFORM" : null)
    expect(t.emit.map((e) => e.type)).toEqual([STATE_CHANGE])
  })

  it("any requested state answers exactly what the spec's table and conflict codes say", () => {
    fc.assert(
      fc.property(fc.constantFrom(...states), fc.constantFrom(...requested), (from, to) => {
        const code = codeOf(cardStep(card(from), { _tag: "Update", state: to }, NOW))
        const expected = from === "CLOSED" ? (to === "CLOSED" ? "CARD_ALREADY_CLOSED" : "CARD_NOT_MUTABLE") : canRequest(from, to) ? "OK" : "INVALID_STATE_TRANSITION"
        expect(code).toBe(expected)
      })
    )
  })

  const arbEvent: fc.Arbitrary<CardEvent> = fc.oneof(
    fc.record({ _tag: fc.constant("Provision" as const), outcome: fc.constantFrom("ACTIVE" as const, "REJECTED" as const) }),
    fc.record(
      {
        _tag: fc.constant("Update" as const),
        state: fc.constantFrom(...requested),
        fundingSources: fc.constant(["InternalAccount:00000000-0000-4000-8000-000000000002"]),
        maxSpendPerTransaction: fc.option(fc.integer({ min: 1, max: 10_000 }), { nil: null })
      },
      { requiredKeys: ["_tag"] }
    )
  )

  it("over any run of events: CLOSED never changes, a reason exactly when CLOSED, a STATE_CHANGE exactly when the state moved", () => {
    fc.assert(
      fc.property(fc.constantFrom<CardState>("PROCESSING", "ACTIVE"), fc.array(arbEvent, { maxLength: 30 }), (initial, events) => {
        let c = card(initial)
        for (const e of events) {
          const r = cardStep(c, e, NOW)
          if (c.state === "CLOSED") expect(Either.isLeft(r)).toBe(true)
          if (Either.isLeft(r)) continue
          const { state: next, emit } = r.right
          expect(emit.filter((x) => x.type === STATE_CHANGE).length).toBe(next.state !== c.state ? 1 : 0)
          expect(emit.some((x) => x.type === FUNDING_SOURCE_CHANGE)).toBe(e._tag === "Update" && e.fundingSources !== undefined)
          expect(next.stateReason !== null).toBe(next.state === "CLOSED")
          // Provisioning is the issuer's, from PROCESSING only; PATCH never leaves PROCESSING.
          if (c.state === "PROCESSING" && next.state !== "PROCESSING") expect(e._tag).toBe("Provision")
          c = next
        }
      })
    )
  })
})

/** One account's buckets, moved as the ledger would move them for a card transaction's moves. */
interface Books {
  available: number
  held: number
  external: number
}

const apply = (b: Books, moves: ReadonlyArray<CardMove>) => {
  for (const m of moves) {
    expect(m.amount).toBeGreaterThan(0)
    if (m.kind === "HOLD") (b.available -= m.amount), (b.held += m.amount)
    if (m.kind === "RELEASE") (b.held -= m.amount), (b.available += m.amount)
    if (m.kind === "SETTLE") (b.held -= m.amount), (b.external += m.amount)
    if (m.kind === "DEBIT") (b.available -= m.amount), (b.external += m.amount)
    if (m.kind === "CREDIT") (b.available += m.amount), (b.external -= m.amount)
  }
}

type Op =
  | { readonly op: "start"; readonly kind: StartKind; readonly amount: number; readonly outcome: DecisioningOutcome }
  | { readonly op: "event"; readonly target: number; readonly event: (t: CardTransactionRecord, available: number) => CardTransactionEvent }

const amount = fc.integer({ min: 1, max: 5_000 })
/** Amounts relative to the transaction (a share of what is held, settled or refunded), so steps land often. */
type EventOf = (t: CardTransactionRecord, available: number) => CardTransactionEvent
const share = fc.constantFrom(0, 0.5, 1, 1, 1.5)
const arbEventOf: fc.Arbitrary<EventOf> = fc.oneof(
  { weight: 3, arbitrary: share.map((k): EventOf => (t, available) => ({ _tag: "Clear", amount: Math.round(k * (t.held || t.authorizedAmount)), available })) },
  { weight: 2, arbitrary: fc.constantFrom(0.5, 1, 1).map((k): EventOf => (t) => ({ _tag: "Return", amount: Math.max(1, Math.round(k * (t.settledAmount - t.refundedAmount))) })) },
  { weight: 2, arbitrary: share.map((k): EventOf => (t, available) => ({ _tag: "Advise", amount: Math.max(1, Math.round(k * t.authorizedAmount)), available })) },
  { weight: 1, arbitrary: fc.constant<EventOf>((_, available) => ({ _tag: "ReverseReturn", available })) },
  { weight: 1, arbitrary: fc.constant<EventOf>(() => ({ _tag: "ConfirmPull" })) }
)

// Events on existing transactions outnumber new ones, so transactions live through many steps.
const arbOp: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant("start" as const),
      kind: fc.constantFrom<StartKind>("AUTHORIZATION", "AUTHORIZATION", "FINANCIAL_AUTHORIZATION", "CREDIT_AUTHORIZATION", "FINANCIAL_CREDIT_AUTHORIZATION"),
      amount,
      outcome: fc.constantFrom<DecisioningOutcome>("APPROVED", "APPROVED", "APPROVED", "INSUFFICIENT_FUNDS", "CARD_PAUSED", "DELAYED_PULL", "EXCEPTION")
    })
  },
  { weight: 3, arbitrary: fc.record({ op: fc.constant("event" as const), target: fc.nat(), event: arbEventOf }) }
)

describe("the card transaction machine", () => {
  it("never overdraws: available and held stay ≥ 0, held is the open authorizations' holds, money is conserved", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20_000 }), fc.array(arbOp, { minLength: 10, maxLength: 60 }), (funds, ops) => {
        const books: Books = { available: funds, held: 0, external: 0 }
        const txs: Array<CardTransactionRecord> = []
        let n = 0
        for (const o of ops) {
          if (o.op === "start") {
            const step = start(
              {
                kind: o.kind,
                id: `CardTransaction:00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`,
                token: `t${n}`,
                card: card("ACTIVE"),
                platformCustomerId: "p",
                amount: o.amount,
                currency: currencies["USDB"]!,
                merchant: { descriptor: "SHOP" },
                outcome: o.outcome,
                sources: [{ id: "InternalAccount:00000000-0000-4000-8000-000000000001", available: books.available }]
              },
              NOW
            )
            if (o.outcome === "INSUFFICIENT_FUNDS" || o.outcome === "CARD_PAUSED") expect(step._tag).toBe("Declined")
            if (step._tag === "Declined") continue
            apply(books, step.moves)
            txs.push(step.state)
          } else {
            if (txs.length === 0) continue
            const i = o.target % txs.length
            const r = cardTransactionStep(txs[i]!, o.event(txs[i]!, books.available), NOW)
            if (Either.isLeft(r) || r.right._tag === "Declined") continue
            apply(books, r.right.moves)
            txs[i] = r.right.state
            expect(r.right.emit.map((e) => e.type)).toEqual([`CARD_TRANSACTION.${r.right.state.status}`])
          }
          expect(books.available).toBeGreaterThanOrEqual(0)
          expect(books.held).toBeGreaterThanOrEqual(0)
          expect(books.held).toBe(txs.reduce((s, t) => s + t.held, 0))
          expect(books.available + books.held + books.external).toBe(funds)
          for (const t of txs) {
            expect(t.refundedAmount).toBeLessThanOrEqual(t.settledAmount)
            if (t.status !== "AUTHORIZED" && t.status !== "PARTIALLY_SETTLED") expect(t.held).toBe(0)
          }
        }
      }),
      { numRuns: 300 }
    )
  })

  it("a debit authorization is funded only when the source covers it, within the card's limit", () => {
    fc.assert(
      fc.property(amount, fc.integer({ min: 0, max: 6_000 }), fc.option(amount, { nil: null }), (a, available, limit) => {
        const step = start(
          {
            kind: "AUTHORIZATION",
            id: "CardTransaction:00000000-0000-4000-8000-000000000001",
            token: "t",
            card: card("ACTIVE", { maxSpendPerTransaction: limit }),
            platformCustomerId: "p",
            amount: a,
            currency: currencies["USDB"]!,
            merchant: { descriptor: "SHOP" },
            outcome: "APPROVED",
            sources: [{ id: "InternalAccount:00000000-0000-4000-8000-000000000001", available }]
          },
          NOW
        )
        const expected = limit !== null && a > limit ? "MAX_SPEND_EXCEEDED" : a > available ? "INSUFFICIENT_FUNDS" : undefined
        expect(step._tag === "Declined" ? step.reason : undefined).toBe(expected)
      })
    )
  })

  it.each<readonly [CardState, string]>([
    ["FROZEN", "CARD_PAUSED"],
    ["CLOSED", "CARD_CLOSED"],
    ["PROCESSING", "CARD_NOT_ACTIVE"],
    ["PENDING_KYC", "CARD_NOT_ACTIVE"]
  ])("a %s card declines every authorization with %s", (state, reason) => {
    const step = start(
      {
        kind: "AUTHORIZATION",
        id: "CardTransaction:00000000-0000-4000-8000-000000000001",
        token: "t",
        card: card(state),
        platformCustomerId: "p",
        amount: 1,
        currency: currencies["USDB"]!,
        merchant: { descriptor: "SHOP" },
        outcome: "APPROVED",
        sources: [{ id: "InternalAccount:00000000-0000-4000-8000-000000000001", available: 100 }]
      },
      NOW
    )
    expect(step).toEqual({ _tag: "Declined", reason })
  })
})
