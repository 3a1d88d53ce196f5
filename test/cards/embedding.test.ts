import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Engine, isReply, type PlatformRecord } from "@tessera/core"
import { ledger } from "../../packages/core/src/operations/index.ts"
import { everyStore } from "../support/stores.ts"

type Card = { id: string; state: string; last4: string }
type Sim = { issuerTransactionToken: string; cardTransactionId?: string; declineReason?: string }

const body = <A>(r: unknown): A => (isReply(r) ? (r.body as A) : (r as A))

describe.each(everyStore("cards-embed"))("cards through the embedding API (%s store)", (_kind, layer) => {
  let engine: Engine
  let platform: PlatformRecord
  beforeAll(async () => {
    engine = await Engine.make({ store: layer(), clock: "virtual" })
    platform = await engine.platform({ clientId: "cards-embed", clientSecret: "cards-embed-secret-0123456789" })
  })
  afterAll(() => engine.dispose())

  /** An approved customer's account that the sandbox accepts as a funding source, funded. */
  const holder = async (amount: number) => {
    const api = engine.as(platform)
    for (;;) {
      const c = body<{ id: string }>(await api.customers.create({ customerType: "INDIVIDUAL", fullName: "Embedded Holder" } as never))
      const accountId = (await api.internalAccounts.list({ customerId: c.id })).data[0]!.id
      if (["002", "003"].includes(accountId.slice(-3))) continue
      await api.sandbox.fundInternalAccount(accountId, { amount })
      return { customerId: c.id, accountId }
    }
  }

  it("issues, authorizes, clears, freezes and closes a card; the journal records the card's money", async () => {
    const api = engine.as(platform)
    const h = await holder(5_000)
    const card = body<Card>(await api.cards.create({ cardholderId: h.customerId, form: "VIRTUAL", fundingSources: [h.accountId], platformCardId: "embedded-1" }))
    expect(card.state).toBe("ACTIVE")
    const auth = body<Sim>(await api.sandbox.simulateCardAuthorization(card.id, { amount: 1_200, currency: { code: "USDB" }, merchant: { descriptor: "EMBEDDED CAFE" } }))
    const id = auth.cardTransactionId!
    await api.sandbox.simulateCardClearing(card.id, { cardTransactionId: id, amount: 1_000 })
    await api.sandbox.simulateCardClearing(card.id, { cardTransactionId: id, amount: 0 })
    expect(await api.transactions.get(id)).toMatchObject({ type: "CARD", status: "SETTLED" })
    expect((await engine.run(ledger.movementsOf(platform.id, id))).map((m) => m.kind)).toEqual(["CARD_HOLD", "CARD_SETTLE", "CARD_RELEASE"])
    expect(await engine.run(ledger.balanceOf(platform.id, h.accountId))).toMatchObject({ available: 4_000, held: 0, total: 4_000 })
    expect(await api.cards.update(card.id, { state: "FROZEN" })).toMatchObject({ state: "FROZEN" })
    const declined = body<Sim>(await api.sandbox.simulateCardAuthorization(card.id, { amount: 1, currency: { code: "USDB" }, merchant: { descriptor: "X" } }))
    expect(declined.declineReason).toBe("CARD_PAUSED")
    expect(await api.cards.update(card.id, { state: "CLOSED" })).toMatchObject({ state: "CLOSED", stateReason: "CLOSED_BY_PLATFORM" })
    await expect(api.cards.update(card.id, { state: "CLOSED" })).rejects.toMatchObject({ _tag: "CARD_ALREADY_CLOSED", status: 409 })
    await expect(api.cards.update(card.id, { state: "ACTIVE" })).rejects.toMatchObject({ _tag: "CARD_NOT_MUTABLE", status: 409 })
    expect((await api.cards.list({ cardholderId: h.customerId })).data.map((c) => c.id)).toEqual([card.id])
    await expect(api.cards.get("Card:00000000-0000-4000-8000-000000000000")).rejects.toMatchObject({ _tag: "REFERENCE_NOT_FOUND", status: 404 })
  })

  it("exports cards and card transactions with the state, and imports them back working", async () => {
    const api = engine.as(platform)
    const h = await holder(3_000)
    const card = body<Card>(await api.cards.create({ cardholderId: h.customerId, form: "VIRTUAL", fundingSources: [h.accountId], platformCardId: "embedded-2" }))
    const id = body<Sim>(await api.sandbox.simulateCardAuthorization(card.id, { amount: 500, currency: { code: "USDB" }, merchant: { descriptor: "STATE SHOP" } })).cardTransactionId!
    const doc = (await api.sandbox.exportState()) as unknown as { collections: Record<string, Array<{ id: string }>> }
    expect(doc.collections["cards"]!.map((c) => c.id)).toContain(card.id)
    expect(doc.collections["transactions"]!.map((t) => t.id)).toContain(id)

    const other = await Engine.make({ store: layer(), clock: "virtual" })
    try {
      const p2 = await other.platform({ clientId: "cards-embed-2", clientSecret: "cards-embed-2-secret-0123456789" })
      const api2 = other.as(p2)
      await api2.sandbox.importState(doc as never)
      expect(await api2.cards.get(card.id)).toEqual(await api.cards.get(card.id))
      expect(await api2.transactions.get(id)).toEqual(await api.transactions.get(id))
      await api2.sandbox.simulateCardClearing(card.id, { cardTransactionId: id, amount: 500 })
      expect(await api2.transactions.get(id)).toMatchObject({ status: "SETTLED" })
      expect(await other.run(ledger.balanceOf(p2.id, h.accountId))).toMatchObject({ available: 2_500, held: 0 })
      // A card record that breaks its schema is refused, every problem listed.
      const broken = structuredClone(doc)
      const c = broken.collections["cards"]!.find((x) => x.id === card.id) as unknown as Record<string, unknown>
      c["state"] = "OPEN"
      c["last4"] = "12"
      await expect(api2.sandbox.importState(broken as never)).rejects.toMatchObject({ _tag: "INVALID_INPUT" })
    } finally {
      await other.dispose()
    }
  })
})
