import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { Effect } from "effect"
import { isReply, makeEngine, Store, Transactions } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"

/**
 * Money is conserved over any sequence of funding, quotes (executed or left to expire), pulls,
 * real-time funded quotes (paid or not) and clock advances, on the in-memory engine: once enough time has passed every transaction has
 * settled, nothing stays held or pending, no balance ever went below zero, and the platform
 * account holds exactly what was funded, less what left for good, plus what was pulled in.
 */
type Step =
  | { readonly _tag: "Fund"; readonly amount: number }
  | { readonly _tag: "Send"; readonly suffix: string; readonly amount: number; readonly execute: boolean }
  | { readonly _tag: "Pull"; readonly suffix: string; readonly amount: number }
  | { readonly _tag: "Realtime"; readonly amount: number; readonly pay: boolean }
  | { readonly _tag: "Advance"; readonly seconds: number }

const suffix = fc.constantFrom("002", "003", "004", "005", "006", "007", "010")
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ _tag: fc.constant("Fund" as const), amount: fc.integer({ min: 1, max: 100_000 }) }),
  fc.record({ _tag: fc.constant("Send" as const), suffix, amount: fc.integer({ min: 1, max: 60_000 }), execute: fc.oneof(fc.constant(true), fc.boolean()) }),
  fc.record({ _tag: fc.constant("Pull" as const), suffix, amount: fc.integer({ min: 1, max: 60_000 }) }),
  fc.record({ _tag: fc.constant("Realtime" as const), amount: fc.integer({ min: 1, max: 60_000 }), pay: fc.oneof(fc.constant(true), fc.boolean()) }),
  fc.record({ _tag: fc.constant("Advance" as const), seconds: fc.integer({ min: 1, max: 400 }) })
)

const body = (v: unknown): any => (isReply(v) ? v.body : v)
/** A refused step (insufficient balance, an expired quote) is part of a random run: it changed nothing. */
const attempt = <A>(p: Promise<A>): Promise<A | undefined> => p.catch((e) => (typeof e?.status === "number" && e.status < 500 ? undefined : Promise.reject(e)))

describe("money over random sequences (in-memory engine, virtual clock)", () => {
  it("is conserved, never negative, and settles", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 25 }), async (steps) => {
        const engine = makeEngine({ store: MemoryStore.layer, clock: "virtual" })
        const platform = await engine.platform({ clientId: "p", clientSecret: "s" })
        const api = engine.as(platform)
        const account = body(await api.platform.listInternalAccounts()).data[0].id as string
        const banks = new Map<string, string>()
        const bank = async (s: string) => {
          if (!banks.has(s)) {
            const created = body(await api.platform.createExternalAccount({
              currency: "USD",
              accountInfo: { accountType: "USD_ACCOUNT", accountNumber: `99000${s}`, routingNumber: "021000021", beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "P" } }
            } as never))
            banks.set(s, created.id)
          }
          return banks.get(s)!
        }
        const balance = async () => {
          const a = body(await api.platform.listInternalAccounts()).data.find((x: any) => x.id === account)
          return { available: a.balance.amount as number, total: a.totalBalance.amount as number }
        }
        let funded = 0
        for (const s of steps) {
          if (s._tag === "Fund") {
            await api.sandbox.fundInternalAccount(account, { amount: s.amount })
            funded += s.amount
          } else if (s._tag === "Advance") await api.sandbox.advanceClock({ seconds: s.seconds })
          else if (s._tag === "Realtime") {
            // Funded in real time into the account: money from outside, once paid.
            const q = body(await attempt(api.quotes.create({
              source: { sourceType: "REALTIME_FUNDING", currency: "USD" },
              destination: { destinationType: "ACCOUNT", accountId: account },
              lockedCurrencySide: "SENDING",
              lockedCurrencyAmount: s.amount
            })))
            if (q !== undefined && s.pay) await attempt(api.sandbox.send({ quoteId: q.id, currencyCode: "USD" }))
          } else {
            const [from, to] = s._tag === "Send" ? [account, await bank(s.suffix)] : [await bank(s.suffix), account]
            const q = body(await attempt(api.quotes.create({
              source: { sourceType: "ACCOUNT", accountId: from },
              destination: { destinationType: "ACCOUNT", accountId: to },
              lockedCurrencySide: "SENDING",
              lockedCurrencyAmount: s.amount,
              ...(s._tag === "Pull" ? { immediatelyExecute: true } : {})
            })))
            if (q !== undefined && s._tag === "Send" && s.execute) await attempt(api.quotes.execute(q.id))
          }
          const b = await balance()
          expect(b.available).toBeGreaterThanOrEqual(0)
          expect(b.total).toBeGreaterThanOrEqual(b.available)
        }
        // Enough time for every delayed outcome.
        await api.sandbox.advanceClock({ seconds: 3600 })
        const all = await engine.run(Effect.flatMap(Store, (st) => st.list(Transactions, platform.id, { limit: 10_000 })))
        let left = 0
        let received = 0
        for (const t of all.items) {
          if (t.type === "CARD") throw new Error("no card transaction in this run")
          expect(["COMPLETED", "FAILED"]).toContain(t.status)
          expect(t.refund?.status).not.toBe("PENDING")
          if (t.type === "OUTGOING") {
            const gone = (t.status === "COMPLETED" && t.refund?.status !== "COMPLETED") || (t.status === "FAILED" && t.refund?.status === "FAILED")
            if (gone) left += t.sentAmount!.amount
          } else if (t.status === "COMPLETED") received += t.receivedAmount!.amount
        }
        const end = await balance()
        expect(end).toEqual({ available: funded - left + received, total: funded - left + received })
        await engine.dispose()
      }),
      { numRuns: 40 }
    )
  })
})
