import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Engine, type PlatformRecord } from "@tessera/core"
import { ledger } from "../../packages/core/src/operations/index.ts"
import { everyStore } from "../support/stores.ts"
import { type FundedEngine, fundedEngine } from "../support/funded-engine.ts"

type Txn = { id: string; status: string; failureReason?: string }

describe.each(everyStore("txn-embed"))("transfers and transactions through the embedding API (%s store)", (_kind, layer) => {
  let engine: Engine
  let platform: PlatformRecord
  let internal: string
  let external: FundedEngine["external"]
  beforeAll(async () => {
    ;({ engine, platform, internal, external } = await fundedEngine(layer(), "embed", 100_000))
  })
  afterAll(() => engine.dispose())

  it("a 005 payout holds, then releases on the clock; a paid one settles to the world: the journal conserves the money", async () => {
    const api = engine.as(platform)
    const failing = (await api.transactions.transferOut({ source: { accountId: internal }, destination: { accountId: await external("555000005") }, amount: 1_000 })).body as Txn
    const paid = (await api.transactions.transferOut({ source: { accountId: internal }, destination: { accountId: await external("555000123") }, amount: 2_000 })).body as Txn
    expect([failing.status, paid.status]).toEqual(["PENDING", "PENDING"])
    await api.sandbox.advanceClock({ seconds: 30 })
    expect(await api.transactions.get(failing.id)).toMatchObject({ status: "FAILED", failureReason: "PAYOUT_RETURNED" })
    expect(await api.transactions.get(paid.id)).toMatchObject({ status: "COMPLETED" })
    expect((await engine.run(ledger.movementsOf(platform.id, failing.id))).map((m) => m.kind)).toEqual(["HOLD", "RELEASE"])
    expect((await engine.run(ledger.movementsOf(platform.id, paid.id))).map((m) => m.kind)).toEqual(["HOLD", "SETTLE"])
    expect(await engine.run(ledger.balanceOf(platform.id, internal))).toMatchObject({ available: 98_000, held: 0, pending: 0, total: 98_000 })
    expect(await engine.run(ledger.balanceOf(platform.id, "world:external:USD"))).toMatchObject({ available: 2_000 })
    const listed = await api.transactions.list({ sortOrder: "asc" })
    expect(listed.data.map((t) => t.id)).toEqual([failing.id, paid.id])
    await expect(api.transactions.get("Transaction:00000000-0000-4000-8000-000000000000")).rejects.toMatchObject({ _tag: "TRANSACTION_NOT_FOUND", status: 404 })
  })
})
