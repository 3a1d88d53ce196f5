import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { Either } from "effect"
import { applyEntries } from "../../packages/core/src/machines/ledger.ts"
import { type LedgerBalanceRecord, type LedgerEntry, totalOf, worldAccount } from "../../packages/core/src/domain/ledger/ledger.ts"

const NOW = "2026-01-01T00:00:00.000Z"
const ACCOUNTS = [
  { id: "InternalAccount:a", currency: "USD" },
  { id: "InternalAccount:b", currency: "USD" },
  { id: "InternalAccount:c", currency: "EUR" }
]

/** The movements the ledger's helpers post, as two entries each. */
type Op =
  | { readonly _tag: "credit" | "creditPending" | "clearPending" | "debit" | "hold" | "release" | "settle"; readonly account: number; readonly amount: number }
  | { readonly _tag: "transfer"; readonly account: number; readonly to: number; readonly amount: number }

const two = (currency: string, from: [string, LedgerEntry["bucket"]], to: [string, LedgerEntry["bucket"]], amount: number): Array<LedgerEntry> => [
  { account: from[0], currency, bucket: from[1], amount: -amount },
  { account: to[0], currency, bucket: to[1], amount }
]

const entriesOf = (op: Op): Array<LedgerEntry> => {
  const { id, currency } = ACCOUNTS[op.account]!
  const world = worldAccount("external", currency)
  switch (op._tag) {
    case "credit": return two(currency, [worldAccount("funding", currency), "available"], [id, "available"], op.amount)
    case "creditPending": return two(currency, [world, "available"], [id, "pending"], op.amount)
    case "clearPending": return two(currency, [id, "pending"], [id, "available"], op.amount)
    case "debit": return two(currency, [id, "available"], [world, "available"], op.amount)
    case "hold": return two(currency, [id, "available"], [id, "held"], op.amount)
    case "release": return two(currency, [id, "held"], [id, "available"], op.amount)
    case "settle": return two(currency, [id, "held"], [world, "available"], op.amount)
    case "transfer": return two(currency, [id, "available"], [ACCOUNTS[op.to]!.id, "available"], op.amount)
  }
}

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    _tag: fc.constantFrom("credit", "creditPending", "clearPending", "debit", "hold", "release", "settle") as fc.Arbitrary<"credit">,
    account: fc.integer({ min: 0, max: 2 }),
    amount: fc.integer({ min: 1, max: 1_000 })
  }),
  // Between the two USD accounts (a movement's rules judge each account's net change).
  fc.integer({ min: 0, max: 1 }).chain((account) =>
    fc.record({ _tag: fc.constant("transfer" as const), account: fc.constant(account), to: fc.constant(1 - account), amount: fc.integer({ min: 1, max: 1_000 }) })
  )
)

const run = (ops: ReadonlyArray<Op>) => {
  const balances = new Map<string, LedgerBalanceRecord>()
  const outcomes: Array<{ op: Op; before: Map<string, LedgerBalanceRecord>; result: ReturnType<typeof applyEntries> }> = []
  for (const o of ops) {
    const before = new Map(balances)
    const result = applyEntries((id) => balances.get(id), entriesOf(o), NOW)
    if (Either.isRight(result)) for (const b of result.right) balances.set(b.id, b)
    outcomes.push({ op: o, before, result })
  }
  return { balances, outcomes }
}

describe("the ledger's rules (machines/ledger.ts)", () => {
  it("conserves money: over any sequence, every currency's balances sum to zero across all accounts", () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const { balances } = run(ops)
        const sums = new Map<string, number>()
        for (const b of balances.values()) sums.set(b.currency, (sums.get(b.currency) ?? 0) + totalOf(b))
        for (const [currency, sum] of sums) expect(sum, currency).toBe(0)
      })
    )
  })

  it("never lets an internal account's bucket go below zero, and refuses exactly the movements that would", () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        for (const { op: o, before, result } of run(ops).outcomes) {
          const { id } = ACCOUNTS[o.account]!
          const b = before.get(id)
          const from = { credit: undefined, creditPending: undefined, clearPending: "pending", debit: "available", hold: "available", release: "held", settle: "held", transfer: "available" }[o._tag] as
            | "available" | "pending" | "held" | undefined
          const short = from !== undefined && (b?.[from] ?? 0) < o.amount
          expect(Either.isLeft(result), `${o._tag} ${o.amount} from ${from}: ${JSON.stringify(b)}`).toBe(short)
          if (Either.isLeft(result) && from === "available") {
            expect(result.left._tag).toBe("INVALID_AMOUNT")
            expect(result.left.details).toMatchObject({ reason: "INSUFFICIENT_BALANCE", accountId: id, available: b?.available ?? 0, requested: o.amount })
          }
          if (Either.isRight(result))
            for (const r of result.right) if (r.id.startsWith("InternalAccount:")) for (const k of ["available", "pending", "held"] as const) expect(r[k]).toBeGreaterThanOrEqual(0)
        }
      })
    )
  })

  it("refuses a movement that does not sum to zero per currency, an unsafe amount, or the wrong currency", () => {
    const none = () => undefined
    const unbalanced = applyEntries(none, [{ account: worldAccount("funding", "USD"), currency: "USD", bucket: "available", amount: -5 }, { account: "InternalAccount:a", currency: "USD", bucket: "available", amount: 4 }], NOW)
    expect(Either.isLeft(unbalanced) && unbalanced.left._tag).toBe("INTERNAL_ERROR")
    const crossCurrency = applyEntries(none, [{ account: "x", currency: "USD", bucket: "available", amount: -5 }, { account: "y", currency: "EUR", bucket: "available", amount: 5 }], NOW)
    expect(Either.isLeft(crossCurrency)).toBe(true)
    const huge = applyEntries(none, two("USD", ["w", "available"], ["InternalAccount:a", "available"], 2 ** 53), NOW)
    expect(Either.isLeft(huge) && huge.left._tag).toBe("AMOUNT_OUT_OF_RANGE")
    const usd: LedgerBalanceRecord = { id: "InternalAccount:a", currency: "USD", available: 10, pending: 0, held: 0, updatedAt: NOW }
    const wrong = applyEntries((id) => (id === usd.id ? usd : undefined), two("EUR", ["w", "available"], [usd.id, "available"], 1), NOW)
    expect(Either.isLeft(wrong) && wrong.left._tag).toBe("INVALID_CURRENCY")
    // Past the exact-integer range, a balance is refused rather than rounded.
    const full: LedgerBalanceRecord = { ...usd, available: Number.MAX_SAFE_INTEGER }
    const over = applyEntries((id) => (id === usd.id ? full : undefined), two("USD", ["w", "available"], [usd.id, "available"], 1), NOW)
    expect(Either.isLeft(over) && over.left._tag).toBe("AMOUNT_OUT_OF_RANGE")
  })

  it("lets world accounts go negative: the funding source is where sandbox money comes from", () => {
    const r = applyEntries(() => undefined, two("USD", [worldAccount("funding", "USD"), "available"], ["InternalAccount:a", "available"], 500), NOW)
    expect(Either.isRight(r) && r.right.map((b) => [b.id, b.available])).toEqual([
      ["world:funding:USD", -500],
      ["InternalAccount:a", 500]
    ])
  })
})
