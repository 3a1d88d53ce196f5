import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Effect } from "effect"
import { Engine, InternalAccounts, isReply, type PlatformRecord, Store } from "@tessera/core"
import { currencies, newInternalAccount } from "../../packages/core/src/domain/internal-accounts/internal-account.ts"
import { everyStore } from "../support/stores.ts"

const body = <A>(r: unknown): A => (isReply(r) ? (r.body as A) : (r as A))

/**
 * Funding sources beyond a customer's Global account: the sandbox provisions one account per
 * customer, so the extra accounts here are written into the store directly, with the ids the
 * suffix rules need.
 */
describe.each(everyStore("cards-funding"))("card funding sources (%s store)", (_kind, layer) => {
  let engine: Engine
  let platform: PlatformRecord
  beforeAll(async () => {
    engine = await Engine.make({ store: layer(), clock: "virtual" })
    platform = await engine.platform({ clientId: "cards-funding", clientSecret: "cards-funding-secret-0123456789" })
  })
  afterAll(() => engine.dispose())

  let serial = 0
  const addAccount = async (customerId: string, suffix: string, currency = "USDB") => {
    const id = `InternalAccount:00000000-0000-4000-8000-${String(++serial).padStart(9, "0")}${suffix}`
    const account = newInternalAccount({ id, customerId, type: "INTERNAL_FIAT", currency: currencies[currency]!, now: "2026-01-01T00:00:00.000Z" })
    await engine.run(Effect.flatMap(Store, (s) => s.put(InternalAccounts, platform.id, account)))
    return id
  }
  const customer = async () => body<{ id: string }>(await engine.as(platform).customers.create({ customerType: "INDIVIDUAL", fullName: "Funding Holder" } as never)).id

  it("accounts ending 002 or 003 are ineligible, as is one in another currency; each is listed", async () => {
    const api = engine.as(platform)
    const holder = await customer()
    const good = await addAccount(holder, "100")
    const bad2 = await addAccount(holder, "002")
    const bad3 = await addAccount(holder, "003")
    const usd = await addAccount(holder, "101", "USD")
    const refused = api.cards.create({ cardholderId: holder, form: "VIRTUAL", fundingSources: [good, bad2, bad3, usd] })
    await expect(refused).rejects.toMatchObject({ _tag: "FUNDING_SOURCE_INELIGIBLE", status: 400 })
    type Refused = Array<{ accountId: string; reason: string }>
    const details = (await refused.then(
      () => [],
      (e: { details: { fundingSources: Refused } }) => e.details.fundingSources
    )) as Refused
    expect(details.map((f) => f.accountId)).toEqual([bad2, bad3, usd])
    expect(details[2]!.reason).toContain("USD")
    // A card in USDB cannot be moved to a USD source either.
    const card = body<{ id: string }>(await api.cards.create({ cardholderId: holder, form: "VIRTUAL", fundingSources: [good], platformCardId: "funding-good-x" }))
    await expect(api.cards.update(card.id, { fundingSources: [usd] })).rejects.toMatchObject({ _tag: "FUNDING_SOURCE_INELIGIBLE" })
  })

  it("Authorization Decisioning tries the sources in their order: the first that covers the amount funds it", async () => {
    const api = engine.as(platform)
    const holder = await customer()
    const first = await addAccount(holder, "200")
    const second = await addAccount(holder, "201")
    await api.sandbox.fundInternalAccount(first, { amount: 100 })
    await api.sandbox.fundInternalAccount(second, { amount: 1_000 })
    const card = body<{ id: string }>(await api.cards.create({ cardholderId: holder, form: "VIRTUAL", fundingSources: [first, second], platformCardId: "funding-ordered-x" }))
    const auth = async (amount: number) =>
      body<{ cardTransactionId?: string; declineReason?: string }>(
        await api.sandbox.simulateCardAuthorization(card.id, { amount, currency: { code: "USDB" }, merchant: { descriptor: "ORDERED SHOP" } })
      )
    const small = await auth(100)
    expect(await api.transactions.get(small.cardTransactionId!)).toMatchObject({ accountId: first })
    const large = await auth(600)
    expect(await api.transactions.get(large.cardTransactionId!)).toMatchObject({ accountId: second })
    // No single source covers 500 now (0 and 400): declined, although together they would.
    expect((await auth(500)).declineReason).toBe("INSUFFICIENT_FUNDS")
    // Reordered, the second source is tried first.
    await api.cards.update(card.id, { fundingSources: [second, first] })
    const next = await auth(50)
    expect(await api.transactions.get(next.cardTransactionId!)).toMatchObject({ accountId: second })
    expect((await api.cards.list({ accountId: first })).data.map((c) => c.id)).toEqual([card.id])
  })
})
