import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { Effect } from "effect"
import { Engine, InternalAccounts, LedgerBalances, Store } from "@tessera/core"
import { ledger } from "../../packages/core/src/operations/index.ts"
import { everyStore } from "../support/stores.ts"

type Step = { readonly op: "fund" | "debit" | "hold" | "release" | "settle" | "pending" | "clear" | "transfer"; readonly account: 0 | 1; readonly amount: number }

const step: fc.Arbitrary<Step> = fc.record({
  op: fc.constantFrom("fund", "debit", "hold", "release", "settle", "pending", "clear", "transfer"),
  account: fc.constantFrom(0 as const, 1 as const),
  amount: fc.integer({ min: 1, max: 500 })
})

describe.each(everyStore("ledger-props"))("the ledger over a real store (%s)", (_kind, layer) => {
  it("keeps every currency summing to zero and each account's record equal to its ledger balance, whatever is refused", async () => {
    const engine = await Engine.make({ store: layer(), clock: "virtual" })
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 25 }), async (steps) => {
        const platform = await engine.platform({ clientId: `p${Math.random()}`, clientSecret: "ledger-props-secret-0123" })
        const api = engine.as(platform)
        const usd = ((await api.platform.listInternalAccounts()) as { data: Array<{ id: string }> }).data[0]!.id
        const other = ((await api.customers.create({ customerType: "INDIVIDUAL", fullName: "Props" })) as { id: string }).id
        const wallet = (await api.internalAccounts.list({ customerId: other })).data[0]!.id
        const accounts = [usd, wallet] as const
        for (const s of steps) {
          const account = accounts[s.account]
          const m = { account, amount: s.amount, counterparty: "external" as const }
          const program =
            s.op === "fund" ? ledger.credit(platform.id, { ...m, counterparty: "funding" })
            : s.op === "debit" ? ledger.debit(platform.id, m)
            : s.op === "hold" ? ledger.hold(platform.id, m)
            : s.op === "release" ? ledger.release(platform.id, m)
            : s.op === "settle" ? ledger.settle(platform.id, m)
            : s.op === "pending" ? ledger.credit(platform.id, { ...m, into: "pending" })
            : s.op === "clear" ? ledger.clearPending(platform.id, m)
            : ledger.credit(platform.id, { ...m, counterparty: { account: accounts[1 - s.account]! } })
          await engine.run(Effect.either(program))
        }
        const balances = await engine.run(Effect.flatMap(Store, (st) => st.list(LedgerBalances, platform.id, { limit: 1000 })))
        const sums = new Map<string, number>()
        for (const b of balances.items) {
          sums.set(b.currency, (sums.get(b.currency) ?? 0) + b.available + b.pending + b.held)
          if (b.id.startsWith("InternalAccount:")) for (const k of ["available", "pending", "held"] as const) expect(b[k]).toBeGreaterThanOrEqual(0)
        }
        for (const sum of sums.values()) expect(sum).toBe(0)
        for (const id of accounts) {
          const b = await engine.run(ledger.balanceOf(platform.id, id))
          const record = await engine.run(Effect.flatMap(Store, (st) => st.get(InternalAccounts, platform.id, id)))
          expect(record._tag === "Some" && [record.value.balance.amount, record.value.totalBalance.amount]).toEqual([b.available, b.total])
        }
      }),
      { numRuns: 15 }
    )
    await engine.dispose()
  }, 60_000)
})
