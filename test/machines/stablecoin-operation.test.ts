import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { Either } from "effect"
import { isTerminal, ledgerPlan, stablecoinOperationStep, type LedgerMove } from "../../packages/core/src/machines/stablecoin-operation.ts"
import type { StablecoinOperationEvent, StablecoinOperationRecord, StablecoinOperationStatus } from "../../packages/core/src/domain/stablecoins/records.ts"
import { applyEntries, checkEntries } from "../../packages/core/src/machines/ledger.ts"
import { operationPlan } from "../../packages/core/src/sandbox/stablecoins.ts"

const T0 = Date.UTC(2026, 4, 20)
const WINDOW = 7 * 24 * 3_600_000
const COIN = "Stablecoin:00000000-0000-4000-8000-000000000002"
const FUNDING = "InternalAccount:00000000-0000-4000-8000-000000000102"
const BANK = "ExternalAccount:00000000-0000-4000-8000-000000000205"

/** The statuses each event may leave, and where it goes (the doc comment's diagram, as data). */
const table: Readonly<Record<StablecoinOperationEvent["_tag"], Partial<Record<StablecoinOperationStatus, StablecoinOperationStatus>>>> = {
  Submit: { CREATED: "PENDING_PROVIDER" },
  FundsReceived: { PENDING_FUNDING: "PROCESSING" },
  ProviderAccepted: { PENDING_PROVIDER: "PROCESSING" },
  Complete: { PROCESSING: "COMPLETED" },
  Fail: { PENDING_PROVIDER: "FAILED", PROCESSING: "FAILED" },
  Expire: { PENDING_FUNDING: "EXPIRED" }
}

const operation = (type: "MINT" | "BURN", holdFiatSource: boolean, tokens: number): StablecoinOperationRecord => ({
  id: "StablecoinOperation:00000000-0000-4000-8000-000000000301",
  stablecoinId: COIN,
  operationType: type,
  status: "CREATED",
  amount: String(tokens),
  provider: "BRALE",
  providerEnvironment: "SANDBOX",
  stablecoinProviderAccountId: "StablecoinProviderAccount:00000000-0000-4000-8000-000000000001",
  source: { type: "WIRE" },
  destination: { accountId: BANK },
  expiresAt: new Date(T0 + WINDOW).toISOString(),
  ledger: ledgerPlan({ type, stablecoinId: COIN, tokenCurrency: "SC:ACME", tokens, fiatCurrency: "USD", fiat: tokens / 10_000, fiatAccount: type === "MINT" ? FUNDING : BANK, holdFiatSource }),
  createdAt: new Date(T0).toISOString(),
  updatedAt: new Date(T0).toISOString()
})

const event: fc.Arbitrary<StablecoinOperationEvent> = fc.oneof(
  fc.boolean().map((awaitFunding): StablecoinOperationEvent => ({ _tag: "Submit", awaitFunding })),
  fc.constant<StablecoinOperationEvent>({ _tag: "FundsReceived" }),
  fc.constant<StablecoinOperationEvent>({ _tag: "ProviderAccepted" }),
  fc.constant<StablecoinOperationEvent>({ _tag: "Complete" }),
  fc.constant<StablecoinOperationEvent>({ _tag: "Fail", reason: "PROVIDER_TRANSFER_FAILED" }),
  fc.constant<StablecoinOperationEvent>({ _tag: "Expire" })
)
const start = fc.tuple(fc.constantFrom<"MINT" | "BURN">("MINT", "BURN"), fc.boolean(), fc.integer({ min: 1, max: 10_000_000 }).map((c) => c * 10_000))
const steps = fc.array(fc.tuple(event, fc.integer({ min: 0, max: WINDOW })), { maxLength: 12 })

/** Net effect of moves per account, bucket and currency. */
const net = (moves: ReadonlyArray<LedgerMove>): Map<string, number> => {
  const out = new Map<string, number>()
  for (const m of moves) for (const e of m.entries) out.set(`${e.account}|${e.bucket}|${e.currency}`, (out.get(`${e.account}|${e.bucket}|${e.currency}`) ?? 0) + e.amount)
  for (const [k, v] of out) if (v === 0) out.delete(k)
  return out
}

describe("stablecoin operation machine", () => {
  it("takes only the transitions of its table, and terminal statuses stay terminal", () => {
    fc.assert(
      fc.property(start, steps, ([type, hold, tokens], evs) => {
        let o = operation(type, hold, tokens)
        let now = T0
        for (const [e, dt] of evs) {
          now += dt
          const r = stablecoinOperationStep(o, e, now)
          const allowed = table[e._tag][o.status]
          if (Either.isLeft(r)) {
            expect(r.left.status).toBe(409)
            continue
          }
          expect(isTerminal(o.status)).toBe(false)
          const to = e._tag === "Submit" && e.awaitFunding ? "PENDING_FUNDING" : allowed
          expect(r.right.state.status).toBe(to)
          if (e._tag === "Expire") expect(now).toBeGreaterThanOrEqual(T0 + WINDOW)
          o = r.right.state
        }
      })
    )
  })

  it("conserves money: every movement balances, a completed one moves exactly its plan, a failed or expired one nothing", () => {
    fc.assert(
      fc.property(start, steps, ([type, hold, tokens], evs) => {
        let o = operation(type, hold, tokens)
        const moves: Array<LedgerMove> = []
        let now = T0
        for (const [e, dt] of evs) {
          now += dt
          const r = stablecoinOperationStep(o, e, now)
          if (Either.isLeft(r)) continue
          for (const m of r.right.moves) expect(Either.isRight(checkEntries(m.entries))).toBe(true)
          moves.push(...r.right.moves)
          o = r.right.state
        }
        const effect = net(moves)
        if (o.status === "COMPLETED") {
          // Held then settled nets to the settlement taken from available.
          const expected = net([{ kind: "plan", entries: o.ledger.settle.map((e) => ({ ...e, bucket: "available" as const })) }])
          expect(effect).toEqual(expected)
        } else if (o.status === "FAILED" || o.status === "EXPIRED" || o.status === "CREATED") expect(effect).toEqual(new Map())
        else expect([...effect.keys()].every((k) => k.includes("|available|") || k.includes("|held|"))).toBe(true)
      })
    )
  })

  it("a burn is refused at submission beyond the reserve free to redeem, and the refusal moves nothing", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 0, max: 1_000_000 }), (cents, reserve) => {
        const r = stablecoinOperationStep(operation("BURN", false, cents * 10_000), { _tag: "Submit", awaitFunding: false, reserveAvailable: reserve }, T0)
        if (reserve >= cents) expect(Either.isRight(r)).toBe(true)
        else expect(Either.isLeft(r) && r.left._tag === "INVALID_AMOUNT" && r.left.details?.["reason"] === "INSUFFICIENT_BALANCE").toBe(true)
      })
    )
  })

  it("every sandbox plan runs through the machine to a terminal status, its internal accounts never below zero", () => {
    fc.assert(
      fc.property(start, fc.boolean(), fc.constantFrom("FAILS", "NEVER_FUNDED", "COMPLETES") as fc.Arbitrary<"FAILS" | "NEVER_FUNDED" | "COMPLETES">, ([type, hold, tokens], awaitFunding, outcome) => {
        let o = operation(type, hold, tokens)
        let now = T0
        const balances = new Map([[FUNDING, { id: FUNDING, currency: "USD", available: tokens / 10_000, pending: 0, held: 0, updatedAt: "" }]])
        for (const s of operationPlan(awaitFunding, outcome, Number.MAX_SAFE_INTEGER)) {
          now += s.afterMs
          const r = stablecoinOperationStep(o, s.event, now)
          expect(Either.isRight(r), JSON.stringify(s)).toBe(true)
          if (Either.isLeft(r)) return
          for (const m of r.right.moves) {
            const after = applyEntries((id) => balances.get(id), m.entries, "")
            expect(Either.isRight(after)).toBe(true)
            if (Either.isRight(after)) for (const b of after.right) balances.set(b.id, b)
          }
          o = r.right.state
        }
        expect(isTerminal(o.status)).toBe(true)
      })
    )
  })
})
