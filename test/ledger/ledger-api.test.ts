import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Effect, Either } from "effect"
import { MemoryStore } from "@tessera/adapter-memory"
import { Engine, type EngineServices, InternalAccounts, LedgerMovements, Outbox, type PlatformRecord, Store } from "@tessera/core"
import { ledger } from "../../packages/core/src/operations/index.ts"
import { everyStore } from "../support/stores.ts"

describe.each(everyStore("ledger"))("the ledger API (%s store)", (_kind, layer) => {
  let engine: Engine
  let platform: PlatformRecord
  let usd: string
  beforeAll(async () => {
    engine = await Engine.make({ store: layer(), clock: "virtual" })
    platform = await engine.platform({ clientId: "ledger", clientSecret: "ledger-secret-0123456789" })
    usd = ((await engine.as(platform).platform.listInternalAccounts()) as { data: Array<{ id: string }> }).data[0]!.id
  })
  afterAll(() => engine.dispose())

  const balance = (id = usd) => engine.run(ledger.balanceOf(platform.id, id))
  const journal = () => engine.run(Effect.flatMap(Store, (s) => s.list(LedgerMovements, platform.id, { limit: 1_000_000 })).pipe(Effect.map((p) => p.totalCount)))
  const attempt = <A, E>(program: Effect.Effect<A, E, EngineServices>) => engine.run(Effect.either(program))

  it("funds through the embedding API, answering the account with its new balance", async () => {
    const api = engine.as(platform)
    const account = (await api.sandbox.fundInternalAccount(usd, { amount: 10_000 })) as { balance: { amount: number } }
    expect(account.balance.amount).toBe(10_000)
    await expect(api.sandbox.fundInternalAccount(usd, { amount: 0 })).rejects.toMatchObject({ _tag: "INVALID_INPUT", status: 400 })
    expect(await balance()).toMatchObject({ currency: "USD", available: 10_000, pending: 0, held: 0, total: 10_000 })
  })

  it("holds, releases and settles: balance is what is available, totalBalance what is held too", async () => {
    await engine.run(ledger.hold(platform.id, { account: usd, amount: 4_000, reference: "Transaction:t1" }))
    expect(await balance()).toMatchObject({ available: 6_000, held: 4_000, total: 10_000 })
    const record = await engine.run(Effect.flatMap(Store, (s) => s.get(InternalAccounts, platform.id, usd)))
    expect(record._tag === "Some" && [record.value.balance.amount, record.value.totalBalance.amount]).toEqual([6_000, 10_000])
    await engine.run(ledger.release(platform.id, { account: usd, amount: 1_000, reference: "Transaction:t1" }))
    await engine.run(ledger.settle(platform.id, { account: usd, amount: 3_000, counterparty: "external", reference: "Transaction:t1" }))
    expect(await balance()).toMatchObject({ available: 7_000, held: 0, total: 7_000 })
    expect(await balance("world:external:USD")).toMatchObject({ available: 3_000 })
    const lines = await engine.run(ledger.movementsOf(platform.id, "Transaction:t1"))
    expect(lines.map((m) => m.kind)).toEqual(["HOLD", "RELEASE", "SETTLE"])
  })

  it("refuses spending more than is available, before anything is written", async () => {
    const movements = await journal()
    const events = await engine.run(Effect.flatMap(Store, (s) => s.list(Outbox, platform.id, { limit: 1 })).pipe(Effect.map((p) => p.totalCount)))
    const refused = await attempt(ledger.debit(platform.id, { account: usd, amount: 7_001, counterparty: "external" }))
    expect(Either.isLeft(refused) && refused.left).toMatchObject({
      _tag: "INVALID_AMOUNT",
      status: 400,
      details: { reason: "INSUFFICIENT_BALANCE", accountId: usd, available: 7_000, requested: 7_001 }
    })
    const overRelease = await attempt(ledger.release(platform.id, { account: usd, amount: 1 }))
    expect(Either.isLeft(overRelease) && overRelease.left._tag).toBe("INVALID_STATE_TRANSITION")
    expect(await journal()).toBe(movements)
    expect(await engine.run(Effect.flatMap(Store, (s) => s.list(Outbox, platform.id, { limit: 1 })).pipe(Effect.map((p) => p.totalCount)))).toBe(events)
    expect(await balance()).toMatchObject({ available: 7_000, total: 7_000 })
  })

  it("commits with the caller's state change, or not at all", async () => {
    const failing = Effect.flatMap(Store, (s) =>
      s.transaction(
        Effect.gen(function* () {
          yield* ledger.debit(platform.id, { account: usd, amount: 2_000, counterparty: "external", reference: "Transaction:t2" })
          return yield* Effect.fail("the state change after it failed" as const)
        })
      )
    )
    expect(Either.isLeft(await attempt(failing))).toBe(true)
    expect(await balance()).toMatchObject({ available: 7_000 })
    expect(await engine.run(ledger.movementsOf(platform.id, "Transaction:t2"))).toEqual([])
  })

  it("keeps each currency's sum over all ledger accounts at zero", async () => {
    const doc = (await engine.as(platform).sandbox.exportState()) as unknown as { collections: { ledgerBalances: Array<{ currency: string; available: number; pending: number; held: number }> } }
    const sums = new Map<string, number>()
    for (const b of doc.collections.ledgerBalances) sums.set(b.currency, (sums.get(b.currency) ?? 0) + b.available + b.pending + b.held)
    expect([...sums.values()].every((s) => s === 0)).toBe(true)
    expect(sums.size).toBeGreaterThan(0)
  })

  it("refuses an unknown internal account with 404 and an amount that is not a positive safe integer", async () => {
    const unknown = await attempt(ledger.credit(platform.id, { account: "InternalAccount:00000000-0000-4000-8000-000000000000", amount: 1, counterparty: "funding" }))
    expect(Either.isLeft(unknown) && unknown.left).toMatchObject({ _tag: "REFERENCE_NOT_FOUND" })
    for (const amount of [0, -5, 0.5, 2 ** 53]) {
      const r = await attempt(ledger.credit(platform.id, { account: usd, amount, counterparty: "funding" }))
      expect(Either.isLeft(r) && r.left._tag, String(amount)).toBe("AMOUNT_OUT_OF_RANGE")
    }
  })
})

describe("a cross-currency settlement", () => {
  it("posts both legs in one movement, each currency summing to zero (the ledger index's example)", async () => {
    const engine = await Engine.make({ store: MemoryStore.layer, clock: "virtual" })
    const platform = await engine.platform({ clientId: "x", clientSecret: "x-secret-0123456789" })
    const usd = ((await engine.as(platform).platform.listInternalAccounts()) as { data: Array<{ id: string }> }).data[0]!.id
    await engine.as(platform).sandbox.fundInternalAccount(usd, { amount: 10_000 })
    await engine.run(ledger.hold(platform.id, { account: usd, amount: 10_000, reference: "Transaction:x" }))
    const w = ledger.worldAccount
    const r = await engine.run(Effect.either(ledger.post(platform.id, { kind: "SETTLE", reference: "Transaction:x", entries: [
      { account: usd, currency: "USD", bucket: "held", amount: -10_000 },
      { account: w("fx", "USD"), currency: "USD", bucket: "available", amount: 9_990 },
      { account: w("fees", "USD"), currency: "USD", bucket: "available", amount: 10 },
      { account: w("fx", "MXN"), currency: "MXN", bucket: "available", amount: -172_000 },
      { account: w("external", "MXN"), currency: "MXN", bucket: "available", amount: 172_000 }
    ] })))
    expect(Either.isRight(r)).toBe(true)
    expect(await engine.run(ledger.balanceOf(platform.id, usd))).toMatchObject({ available: 0, held: 0, total: 0 })
    expect(await engine.run(ledger.balanceOf(platform.id, w("external", "MXN")))).toMatchObject({ currency: "MXN", available: 172_000 })
    await engine.dispose()
  })
})
