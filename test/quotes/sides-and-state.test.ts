import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { accountQuote, balances, execute, fund, platformBankAccount, platformUsdAccount, quote, transaction, V } from "./support.ts"

describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("quote sides, real-time funding into an account, and the state document (%s store)", (kind) => {
  let t: TestServer
  let source: string
  beforeAll(async () => {
    t = await startTestServer(kind, { clock: "virtual" })
    source = await platformUsdAccount(t)
    await fund(t, source, 1_000_000)
  })
  afterAll(async () => t.close())

  it("a locked receiving amount arrives exactly; the sending side pays it and the fees", async () => {
    const eur = await t.request("POST", `${V}/platform/external-accounts`, {
      body: { currency: "EUR", accountInfo: { accountType: "EUR_ACCOUNT", iban: "DE89370400440532013000", beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Jane Smith", countryOfResidence: "DE" } } }
    })
    expect(eur.status, JSON.stringify(eur.body)).toBe(201)
    const q = await quote(t, { ...accountQuote(source, eur.body.id, 10_000), lockedCurrencySide: "RECEIVING" })
    expect(q.status, JSON.stringify(q.body)).toBe(201)
    expect(q.body).toMatchObject({ totalReceivingAmount: 10_000, receivingCurrency: { code: "EUR" } })
    expect(q.body.feesIncluded).toBeGreaterThan(0)
    // Sending units per receiving unit (#175): what is sent, less fees, buys what arrives.
    expect(Math.floor((q.body.totalSendingAmount - q.body.feesIncluded) / q.body.exchangeRate)).toBeGreaterThanOrEqual(10_000)
    expect(Math.floor((q.body.totalSendingAmount - 1 - q.body.feesIncluded) / q.body.exchangeRate)).toBeLessThan(10_000)
  })

  it("real-time funding into an internal account: INCOMING, credited when paid", async () => {
    const before = await balances(t, source)
    const q = await quote(t, { source: { sourceType: "REALTIME_FUNDING", currency: "EUR" }, destination: { destinationType: "ACCOUNT", accountId: source }, lockedCurrencySide: "SENDING", lockedCurrencyAmount: 5_000 })
    expect(q.status, JSON.stringify(q.body)).toBe(201)
    expect(q.body.paymentInstructions[0].accountOrWalletInfo).toMatchObject({ accountType: "EUR_ACCOUNT" })
    expect(await balances(t, source)).toEqual(before)
    const paid = await t.request("POST", `${V}/sandbox/send`, { body: { quoteId: q.body.id, currencyCode: "EUR" } })
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    expect(paid.body).toMatchObject({ type: "INCOMING", direction: "CREDIT", status: "COMPLETED" })
    expect((await balances(t, source)).available).toBe(before.available + q.body.totalReceivingAmount)
  })

  it("quotes and idempotency keys travel in the state document: a replay after an import answers the first answer", async () => {
    const dest = await platformBankAccount(t, "010")
    const q = await quote(t, accountQuote(source, dest, 1_500))
    const key = { "idempotency-key": `state-${kind}` }
    const first = await execute(t, q.body.id, key)
    expect(first.status).toBe(200)
    const doc = (await t.request("GET", `${V}/sandbox/state`)).body
    expect(doc.collections.quotes.length).toBeGreaterThan(0)
    expect(doc.collections.idempotencyKeys).toHaveLength(1)
    const b = await startTestServer(kind, { clock: "virtual" })
    try {
      expect((await b.request("PUT", `${V}/sandbox/state`, { body: doc })).status).toBe(200)
      expect((await b.request("GET", `${V}/quotes/${q.body.id}`)).body).toEqual((await t.request("GET", `${V}/quotes/${q.body.id}`)).body)
      const replay = await b.request("POST", `${V}/quotes/${q.body.id}/execute`, { headers: key })
      expect([replay.status, replay.body]).toEqual([200, first.body])
      const again = await b.request("POST", `${V}/quotes/${q.body.id}/execute`)
      expect([again.status, again.body.details.reason]).toEqual([409, "QUOTE_ALREADY_EXECUTED"])
      expect((await transaction(t, q.body.transactionId)).status).toBe("COMPLETED")
    } finally {
      await b.close()
    }
  })
})
