import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { accountQuote, advance, balances, execute, fund, platformBankAccount, platformUsdAccount, quote, transaction, V } from "./support.ts"

describe.each<StoreKind>(["memory", "sqlite", "async-memory", "postgres"])("quotes over HTTP (%s store)", (kind) => {
  let t: TestServer
  let source: string
  beforeAll(async () => {
    t = await startTestServer(kind, { clock: "virtual" })
    source = await platformUsdAccount(t)
    await fund(t, source, 10_000_000)
  })
  afterAll(async () => t.close())

  it("lists every invalid field at once and changes nothing", async () => {
    const r = await quote(t, { source: { sourceType: "ACCOUNT" }, destination: { destinationType: "UMA_ADDRESS", umaAddress: "nope" }, lockedCurrencySide: "BOTH", lockedCurrencyAmount: 0 })
    expect(r.status).toBe(400)
    expect(r.body.code).toBe("INVALID_INPUT")
    expect(r.body.details.errors.map((e: any) => e.field).sort()).toEqual(["destination.umaAddress", "lockedCurrencyAmount", "lockedCurrencySide", "lookupId", "source.accountId"])
    const ids = await quote(t, accountQuote("Customer:x", "nothing", 100))
    expect(ids.body.details.errors.map((e: any) => e.field)).toEqual(["source.accountId", "destination.accountId"])
  })

  it("creates a quote at the rate of now, reads it back, and 404s an unknown one", async () => {
    const dest = await platformBankAccount(t, "010")
    const q = await quote(t, accountQuote(source, dest, 12_345, { description: "rent" }))
    expect(q.status).toBe(201)
    expect(q.body).toMatchObject({ status: "PENDING", sendingCurrency: { code: "USD" }, receivingCurrency: { code: "USD" }, totalSendingAmount: 12_345 })
    expect(q.body.id).toMatch(/^Quote:/)
    expect(q.body.transactionId).toMatch(/^Transaction:/)
    expect(Date.parse(q.body.expiresAt) - Date.parse(q.body.createdAt)).toBe(5 * 60_000)
    expect((await t.request("GET", `${V}/quotes/${q.body.id}`)).body).toEqual(q.body)
    for (const id of ["Quote:00000000-0000-4000-8000-000000000000", "garbage"]) {
      const r = await t.request("GET", `${V}/quotes/${id}`)
      expect([r.status, r.body.code]).toEqual([404, "QUOTE_NOT_FOUND"])
    }
    const x = await execute(t, "Quote:00000000-0000-4000-8000-000000000000")
    expect([x.status, x.body.code]).toEqual([404, "QUOTE_NOT_FOUND"])
  })

  it("gates: SELF_PAYMENT, INVALID_CURRENCY, AMOUNT_OUT_OF_RANGE, TRANSACTION_SIZE_LIMIT_EXCEEDED, unknown accounts", async () => {
    const self = await quote(t, accountQuote(source, source, 100))
    expect([self.status, self.body.code]).toEqual([400, "SELF_PAYMENT"])
    const dest = await platformBankAccount(t, "010")
    const rt = await quote(t, { source: { sourceType: "REALTIME_FUNDING", currency: "XYZ" }, destination: { destinationType: "ACCOUNT", accountId: dest }, lockedCurrencySide: "SENDING", lockedCurrencyAmount: 100 })
    expect([rt.status, rt.body.code]).toEqual([400, "INVALID_CURRENCY"])
    // The corridor sends from $1 to $100,000 in one transaction.
    const small = await quote(t, accountQuote(source, dest, 99))
    expect([small.status, small.body.code]).toEqual([400, "AMOUNT_OUT_OF_RANGE"])
    const big = await quote(t, accountQuote(source, dest, 10_000_001))
    expect([big.status, big.body.code]).toEqual([400, "TRANSACTION_SIZE_LIMIT_EXCEEDED"])
    expect((await quote(t, accountQuote(source, dest, 10_000_000))).status).toBe(201)
    // The reference declares no 404 here: an unknown id is a bad field.
    const missing = await quote(t, accountQuote(source, "ExternalAccount:00000000-0000-4000-8000-000000000000", 100))
    expect([missing.status, missing.body.code, missing.body.details.errors[0].field]).toEqual([400, "INVALID_INPUT", "destination.accountId"])
  })

  it("the Travel Rule: above 1,000 EUR an unverified self-custody wallet needs its ownership verified; below it the quote proceeds", async () => {
    const address = "0x" + Math.random().toString(16).slice(2).padEnd(40, "7").slice(0, 40)
    const w = await t.request("POST", `${V}/platform/external-accounts`, { body: { currency: "USDC", ownershipType: "FIRST_PARTY", accountInfo: { accountType: "BASE_WALLET", address } } })
    expect(w.body.status).toBe("PENDING_OWNERSHIP_VERIFICATION")
    const above = await quote(t, accountQuote(source, w.body.id, 200_000))
    expect([above.status, above.body.code]).toEqual([400, "EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED"])
    const below = await quote(t, accountQuote(source, w.body.id, 50_000))
    expect(below.status, JSON.stringify(below.body)).toBe(201)
    expect(below.body.receivingCurrency.code).toBe("USDC")
  })

  it("an unexecuted quote expires on the engine's clock: GET shows EXPIRED, execute is 409", async () => {
    const dest = await platformBankAccount(t, "010")
    const q = await quote(t, accountQuote(source, dest, 500))
    await advance(t, 5 * 60)
    expect((await t.request("GET", `${V}/quotes/${q.body.id}`)).body.status).toBe("EXPIRED")
    const before = await balances(t, source)
    const x = await execute(t, q.body.id)
    expect([x.status, x.body.code, x.body.details.reason]).toEqual([409, "CONFLICT", "QUOTE_EXPIRED"])
    expect(await balances(t, source)).toEqual(before)
    expect((await t.request("GET", `${V}/transactions/${q.body.transactionId}`)).status).toBe(404)
  })

  it("executing twice is 409; the first execution moved the money once", async () => {
    const dest = await platformBankAccount(t, "010")
    const before = await balances(t, source)
    const q = await quote(t, accountQuote(source, dest, 700))
    expect((await execute(t, q.body.id)).status).toBe(200)
    const again = await execute(t, q.body.id)
    expect([again.status, again.body.code, again.body.details.reason]).toEqual([409, "CONFLICT", "QUOTE_ALREADY_EXECUTED"])
    expect((await balances(t, source)).available).toBe(before.available - 700)
  })

  it("Idempotency-Key: the same key and request replays the first answer exactly; another request with it is 409", async () => {
    const dest = await platformBankAccount(t, "003")
    const q = await quote(t, accountQuote(source, dest, 800))
    const key = { "idempotency-key": `k-${kind}-${q.body.id}` }
    const first = await execute(t, q.body.id, key)
    expect(first.status).toBe(200)
    const before = await balances(t, source)
    await advance(t, 6 * 60)
    // The quote completed meanwhile; the replay is still the first answer, byte for byte.
    const replay = await execute(t, q.body.id, key)
    expect(replay.status).toBe(200)
    expect(replay.body).toEqual(first.body)
    expect((await balances(t, source)).available).toBe(before.available)
    const other = await quote(t, accountQuote(source, dest, 900))
    const mismatch = await execute(t, other.body.id, key)
    expect([mismatch.status, mismatch.body.code, mismatch.body.details.reason]).toEqual([409, "CONFLICT", "IDEMPOTENCY_KEY_REUSED"])
    expect((await t.request("GET", `${V}/quotes/${other.body.id}`)).body.status).toBe("PENDING")
    // A different body on the same quote is another request too.
    const body = await execute(t, q.body.id, key, { scaFactor: "PASSKEY" })
    expect([body.status, body.body.details?.reason]).toEqual([409, "IDEMPOTENCY_KEY_REUSED"])
  })

  it("Idempotency-Key on POST /quotes: one quote per key", async () => {
    const dest = await platformBankAccount(t, "010")
    const key = { "idempotency-key": `create-${kind}-${dest}` }
    const a = await quote(t, accountQuote(source, dest, 321), key)
    const b = await quote(t, accountQuote(source, dest, 321), key)
    expect([a.status, b.status]).toEqual([201, 201])
    expect(b.body).toEqual(a.body)
    // createQuote declares no 409: the reused key is a 400 on the header.
    const c = await quote(t, accountQuote(source, dest, 322), key)
    expect([c.status, c.body.code, c.body.details.reason]).toEqual([400, "INVALID_INPUT", "IDEMPOTENCY_KEY_REUSED"])
  })

  it("refuses to execute without the money available, and writes nothing", async () => {
    const dest = await platformBankAccount(t, "010")
    const { available } = await balances(t, source)
    const q = await quote(t, accountQuote(source, dest, available + 1))
    expect(q.status).toBe(201)
    const x = await execute(t, q.body.id)
    expect(x.status).toBe(400)
    expect(x.body.details.reason).toBe("INSUFFICIENT_BALANCE")
    expect((await t.request("GET", `${V}/quotes/${q.body.id}`)).body.status).toBe("PENDING")
    expect((await balances(t, source)).available).toBe(available)
  })

  it("pulls funds into an internal account with immediatelyExecute (the source's suffix decides)", async () => {
    const pullFrom = await platformBankAccount(t, "010")
    const before = await balances(t, source)
    const q = await quote(t, { ...accountQuote(pullFrom, source, 4_000), immediatelyExecute: true })
    expect(q.status, JSON.stringify(q.body)).toBe(201)
    expect(q.body.status).toBe("COMPLETED")
    const tx = await transaction(t, q.body.transactionId)
    expect(tx).toMatchObject({ type: "INCOMING", direction: "CREDIT", status: "COMPLETED", quoteId: q.body.id })
    expect((await balances(t, source)).available).toBe(before.available + q.body.totalReceivingAmount)

    const slow = await platformBankAccount(t, "005")
    const s = await quote(t, { ...accountQuote(slow, source, 4_000), immediatelyExecute: true })
    expect((await transaction(t, s.body.transactionId)).status).toBe("PENDING")
    await advance(t, 31)
    expect((await transaction(t, s.body.transactionId)).status).toBe("FAILED")
    expect((await t.request("GET", `${V}/quotes/${s.body.id}`)).body.status).toBe("FAILED")
    expect((await balances(t, source)).available).toBe(before.available + q.body.totalReceivingAmount)
  })

  it("real-time funding: instructions in the quote, paid by /sandbox/send, then the quote proceeds", async () => {
    const dest = await platformBankAccount(t, "010")
    const q = await quote(t, { source: { sourceType: "REALTIME_FUNDING", currency: "USD" }, destination: { destinationType: "ACCOUNT", accountId: dest }, lockedCurrencySide: "SENDING", lockedCurrencyAmount: 5_000 })
    expect(q.status).toBe(201)
    expect(q.body.paymentInstructions[0].accountOrWalletInfo).toMatchObject({ accountType: "USD_ACCOUNT" })
    const wrong = await t.request("POST", `${V}/sandbox/send`, { body: { quoteId: q.body.id, currencyCode: "EUR" } })
    expect([wrong.status, wrong.body.code]).toEqual([400, "INVALID_CURRENCY"])
    const unknown = await t.request("POST", `${V}/sandbox/send`, { body: { quoteId: "Quote:00000000-0000-4000-8000-000000000000", currencyCode: "USD" } })
    expect([unknown.status, unknown.body.code]).toEqual([404, "QUOTE_NOT_FOUND"])
    const paid = await t.request("POST", `${V}/sandbox/send`, { body: { quoteId: q.body.id, currencyCode: "USD" } })
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    expect(paid.body).toMatchObject({ id: q.body.transactionId, type: "OUTGOING", status: "COMPLETED" })
    expect((await t.request("GET", `${V}/quotes/${q.body.id}`)).body.status).toBe("COMPLETED")
    const twice = await t.request("POST", `${V}/sandbox/send`, { body: { quoteId: q.body.id, currencyCode: "USD" } })
    expect([twice.status, twice.body.details?.reason]).toEqual([400, "QUOTE_ALREADY_EXECUTED"])
    const late = await quote(t, { source: { sourceType: "REALTIME_FUNDING", currency: "USD" }, destination: { destinationType: "ACCOUNT", accountId: dest }, lockedCurrencySide: "SENDING", lockedCurrencyAmount: 5_000 })
    await advance(t, 5 * 60)
    const expired = await t.request("POST", `${V}/sandbox/send`, { body: { quoteId: late.body.id, currencyCode: "USD" } })
    expect([expired.status, expired.body.details?.reason]).toEqual([400, "QUOTE_EXPIRED"])
    expect((await t.request("GET", `${V}/transactions/${late.body.transactionId}`)).status).toBe(404)
    const acct = await quote(t, accountQuote(source, dest, 100))
    const notRealtime = await t.request("POST", `${V}/sandbox/send`, { body: { quoteId: acct.body.id, currencyCode: "USD" } })
    expect([notRealtime.status, notRealtime.body.details.errors[0].field]).toEqual([400, "quoteId"])
  })
})
