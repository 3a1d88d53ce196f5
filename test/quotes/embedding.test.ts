import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Engine, type PlatformRecord } from "@tessera/core"
import { ledger } from "../../packages/core/src/operations/index.ts"
import { everyStore } from "../support/stores.ts"
import { type FundedEngine, fundedEngine } from "../support/funded-engine.ts"

type Quote = { id: string; status: string; transactionId: string; totalSendingAmount: number }

describe.each(everyStore("quote-embed"))("quotes through the embedding API (%s store)", (_kind, layer) => {
  let engine: Engine
  let platform: PlatformRecord
  let internal: string
  let external: FundedEngine["external"]
  beforeAll(async () => {
    ;({ engine, platform, internal, external } = await fundedEngine(layer(), "quote-embed", 100_000))
  })
  afterAll(() => engine.dispose())

  it("create answers 201, execute takes the key last and replays it; the journal holds then settles once", async () => {
    const api = engine.as(platform)
    const created = await api.quotes.create({
      source: { sourceType: "ACCOUNT", accountId: internal },
      destination: { destinationType: "ACCOUNT", accountId: await external("777000003") },
      lockedCurrencySide: "SENDING",
      lockedCurrencyAmount: 4_000
    })
    expect(created.status).toBe(201)
    const q = created.body as Quote
    const first = await api.quotes.execute(q.id, undefined, undefined, { idempotencyKey: "embed-1" })
    expect(first).toMatchObject({ status: 200, body: { id: q.id, status: "PROCESSING" } })
    await api.sandbox.advanceClock({ seconds: 6 * 60 })
    expect(await api.quotes.execute(q.id, undefined, undefined, { idempotencyKey: "embed-1" })).toEqual(first)
    expect(await api.quotes.get(q.id)).toMatchObject({ status: "COMPLETED" })
    expect((await engine.run(ledger.movementsOf(platform.id, q.transactionId))).map((m) => m.kind)).toEqual(["HOLD", "SETTLE"])
    expect(await engine.run(ledger.balanceOf(platform.id, internal))).toMatchObject({ available: 96_000, held: 0, total: 96_000 })
    await expect(api.quotes.execute(q.id)).rejects.toMatchObject({ _tag: "CONFLICT", status: 409, details: { reason: "QUOTE_ALREADY_EXECUTED" } })
    await expect(api.quotes.get("Quote:00000000-0000-4000-8000-000000000000")).rejects.toMatchObject({ _tag: "QUOTE_NOT_FOUND", status: 404 })
  })
})
