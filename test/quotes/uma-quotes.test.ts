import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { newWallet } from "../support/wallet.ts"
import { advance, balances, execute, fund, platformUsdAccount, quote, transaction, V, webhooksAbout } from "./support.ts"

const P = (s: string) => `OUTGOING_PAYMENT.${s}`

describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("quotes to UMA addresses (%s store)", (kind) => {
  let t: TestServer
  let source: string
  beforeAll(async () => {
    t = await startTestServer(kind, { clock: "virtual" })
    source = await platformUsdAccount(t)
    await fund(t, source, 5_000_000)
  })
  afterAll(async () => t.close())

  const lookup = async (address: string) => {
    const r = await t.request("GET", `${V}/receiver/uma/${encodeURIComponent(address)}`)
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    return r.body.lookupId as string
  }
  const umaQuote = (address: string, lookupId: string, currency?: string) =>
    quote(t, {
      lookupId,
      source: { sourceType: "ACCOUNT", accountId: source },
      destination: { destinationType: "UMA_ADDRESS", umaAddress: address, ...(currency === undefined ? {} : { currency }) },
      lockedCurrencySide: "SENDING",
      lockedCurrencyAmount: 20_000
    })

  it("success.eur: priced in the receiver's currency from the lookup, executed, completed", async () => {
    const address = "$success.eur@sandbox.uma.money"
    const before = await balances(t, source)
    const q = await umaQuote(address, await lookup(address))
    expect(q.status, JSON.stringify(q.body)).toBe(201)
    expect(q.body).toMatchObject({ receivingCurrency: { code: "EUR" }, sendingCurrency: { code: "USD" }, destination: { umaAddress: address } })
    expect(q.body.totalReceivingAmount).toBeLessThan(20_000)
    const x = await execute(t, q.body.id)
    expect(x.body.status).toBe("COMPLETED")
    const tx = await transaction(t, q.body.transactionId)
    expect(tx).toMatchObject({ type: "OUTGOING", status: "COMPLETED", destination: { destinationType: "UMA_ADDRESS", umaAddress: address } })
    expect((await webhooksAbout(t, tx.id)).map((h) => h.type)).toEqual([P("PENDING"), P("PROCESSING"), P("COMPLETED")])
    expect((await balances(t, source)).available).toBe(before.available - 20_000)
  })

  it("fail.compliance.usd: FAILED with COMPLIANCE_REJECTED and refunded", async () => {
    const address = "$fail.compliance.usd@sandbox.uma.money"
    const before = await balances(t, source)
    const q = await umaQuote(address, await lookup(address))
    expect((await execute(t, q.body.id)).body.status).toBe("FAILED")
    const tx = await transaction(t, q.body.transactionId)
    expect(tx).toMatchObject({ status: "FAILED", failureReason: "COMPLIANCE_REJECTED", refund: { status: "COMPLETED" } })
    expect(await balances(t, source)).toEqual(before)
  })

  it("pending.long.usd: PROCESSING until the long payment completes on the clock", async () => {
    const address = "$pending.long.usd@sandbox.uma.money"
    const q = await umaQuote(address, await lookup(address))
    expect((await execute(t, q.body.id)).body.status).toBe("PROCESSING")
    await advance(t, 6 * 60)
    expect((await transaction(t, q.body.transactionId)).status).toBe("COMPLETED")
    expect((await t.request("GET", `${V}/quotes/${q.body.id}`)).body.status).toBe("COMPLETED")
  })

  it("to another customer of the platform: the payee receives it as an incoming UMA payment; to oneself, SELF_PAYMENT", async () => {
    const payee = await newWallet(t)
    const address = (await t.request("GET", `${V}/customers/${payee.customerId}`)).body.umaAddress as string
    const q = await umaQuote(address, await lookup(address))
    expect(q.status, JSON.stringify(q.body)).toBe(201)
    expect((await execute(t, q.body.id)).body.status).toBe("COMPLETED")
    const incoming = (await t.request("GET", `${V}/transactions?customerId=${encodeURIComponent(payee.customerId)}`)).body.data
    expect(incoming).toHaveLength(1)
    expect(incoming[0]).toMatchObject({ type: "INCOMING", status: "PENDING", quoteId: q.body.id, destination: { accountId: payee.accountId } })
    expect((await balances(t, payee.accountId)).total).toBeGreaterThan(0)
    expect((await t.request("POST", `${V}/transactions/${incoming[0].id}/approve`)).status).toBe(200)
    const credited = await balances(t, payee.accountId)
    expect(credited.available).toBe(credited.total)
    expect(credited.available).toBeGreaterThan(0)

    const self = await quote(t, {
      lookupId: await lookup(address),
      source: { sourceType: "ACCOUNT", accountId: payee.accountId },
      destination: { destinationType: "UMA_ADDRESS", umaAddress: address },
      lockedCurrencySide: "SENDING",
      lockedCurrencyAmount: 5_000_000
    })
    expect([self.status, self.body.code]).toEqual([400, "SELF_PAYMENT"])
  })

  it("the lookup must be this receiver's, and the currency one it accepts", async () => {
    const usd = await lookup("$success.usd@sandbox.uma.money")
    const other = await umaQuote("$success.eur@sandbox.uma.money", usd)
    expect([other.status, other.body.details.errors[0].field]).toEqual([400, "lookupId"])
    const unknown = await umaQuote("$success.usd@sandbox.uma.money", "Lookup:00000000-0000-4000-8000-000000000000")
    expect([unknown.status, unknown.body.details.errors[0].field]).toEqual([400, "lookupId"])
    const currency = await umaQuote("$success.usd@sandbox.uma.money", usd, "MXN")
    expect([currency.status, currency.body.code]).toEqual([400, "INVALID_CURRENCY"])
  })
})
