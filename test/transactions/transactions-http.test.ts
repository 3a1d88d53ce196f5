import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { newCustomer, wallet } from "../external-accounts/support.ts"
import { advance, balances, fund, getTransaction, paymentWebhooks, platformExternal, platformUsdAccount, V } from "./http-support.ts"

const out = (t: TestServer, source: string, destination: string, amount: unknown) =>
  t.request("POST", `${V}/transfer-out`, { body: { source: { accountId: source }, destination: { accountId: destination }, amount } })

describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("transactions and transfer gates over HTTP (%s store)", (kind) => {
  let t: TestServer
  let internal: string
  const count = async () => (await t.request("GET", `${V}/transactions?limit=1`)).body.totalCount as number
  beforeAll(async () => {
    t = await startTestServer(kind, { clock: "virtual" })
    internal = await platformUsdAccount(t)
    await fund(t, internal, 500_000)
  })
  afterAll(async () => t.close())

  it("refuses a transfer the available balance cannot cover, writing nothing", async () => {
    const external = await platformExternal(t, "123")
    const [before, n] = [await balances(t), await count()]
    const r = await out(t, internal, external.id, before.available + 1)
    expect([r.status, r.body.code, r.body.details.reason]).toEqual([400, "INVALID_AMOUNT", "INSUFFICIENT_BALANCE"])
    expect(await balances(t)).toEqual(before)
    expect(await count()).toBe(n)
  })

  it("answers the gates' codes and changes nothing: amount, size, currency, unknown accounts, every bad field", async () => {
    const external = await platformExternal(t, "123")
    const [before, n] = [await balances(t), await count()]
    expect((await out(t, internal, external.id, 0)).body.code).toBe("AMOUNT_OUT_OF_RANGE")
    expect((await out(t, internal, external.id, 10_000_001)).body.code).toBe("TRANSACTION_SIZE_LIMIT_EXCEEDED")
    const address = "0x" + "ef".repeat(20)
    const usdc = await t.request("POST", `${V}/platform/external-accounts`, {
      body: wallet("POLYGON_WALLET", address, { accountInfo: { accountType: "POLYGON_WALLET", address, vaspName: "Kraken" } })
    })
    expect(usdc.status, JSON.stringify(usdc.body)).toBe(201)
    expect((await out(t, internal, usdc.body.id, 100)).body.code).toBe("INVALID_CURRENCY")
    const missing = await out(t, "InternalAccount:00000000-0000-4000-8000-000000000000", external.id, 100)
    expect([missing.status, missing.body.code, missing.body.details.resource]).toEqual([404, "REFERENCE_NOT_FOUND", "InternalAccount"])
    const bad = await t.request("POST", `${V}/transfer-out`, { body: { source: {}, destination: { accountId: "x", paymentRail: "CARRIER_PIGEON" }, amount: 1.5 } })
    expect(bad.status).toBe(400)
    expect(bad.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(["amount", "destination.accountId", "destination.paymentRail", "source.accountId"])
    expect(await balances(t)).toEqual(before)
    expect(await count()).toBe(n)
  })

  it("applies the Travel Rule to an unverified wallet: 400 above the threshold, the transfer proceeds below it", async () => {
    const customerId = await newCustomer(t)
    const walletAccount = (await t.request("GET", `${V}/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}`)).body.data[0].id
    await fund(t, walletAccount, 5_000_000_000)
    const ext = await t.request("POST", `${V}/customers/external-accounts`, {
      body: { ...wallet("BASE_WALLET", "0x" + "cd".repeat(20)), currency: "USDB", customerId }
    })
    expect(ext.body.status, JSON.stringify(ext.body)).toBe("PENDING_OWNERSHIP_VERIFICATION")
    const above = await out(t, walletAccount, ext.body.id, 2_000_000_000)
    expect([above.status, above.body.code]).toEqual([400, "EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED"])
    const below = await out(t, walletAccount, ext.body.id, 100_000_000)
    expect(below.status).toBe(201)
    expect(below.body).toMatchObject({ customerId, source: { accountId: walletAccount } })
    // Another customer's account is not this wallet's to pay.
    const other = await platformExternal(t, "123")
    expect((await out(t, walletAccount, other.id, 1)).body.details.errors[0].field).toBe("destination.accountId")
  })

  it("cancels a transfer still pending: FAILED with a user-cancellation refund, money back, nothing more on the clock; once settled it is 409", async () => {
    const external = await platformExternal(t, "005")
    const before = await balances(t)
    const r = await out(t, internal, external.id, 700)
    const cancelled = await t.request("POST", `${V}/transactions/${r.body.id}/cancel`, { body: { reason: "changed my mind" } })
    expect(cancelled.status).toBe(200)
    expect(cancelled.body).toMatchObject({ status: "FAILED", refund: { status: "COMPLETED", reason: "USER_CANCELLATION" } })
    expect(await balances(t)).toEqual(before)
    await advance(t, 60)
    expect(await getTransaction(t, r.body.id)).toEqual(cancelled.body)
    expect((await paymentWebhooks(t, r.body.id)).map((h) => h.type)).toEqual(["OUTGOING_PAYMENT.PENDING", "OUTGOING_PAYMENT.FAILED"])
    const again = await t.request("POST", `${V}/transactions/${r.body.id}/cancel`)
    expect([again.status, again.body.code]).toEqual([409, "TRANSACTION_NOT_CANCELLABLE"])
    const done = await out(t, internal, (await platformExternal(t, "123")).id, 700)
    expect((await t.request("POST", `${V}/transactions/${done.body.id}/cancel`)).body.code).toBe("TRANSACTION_NOT_CANCELLABLE")
  })

  it("approve and reject answer 409 for a transaction not waiting for the platform; confirm records the receipt time", async () => {
    const r = await out(t, internal, (await platformExternal(t, "123")).id, 300)
    for (const action of ["approve", "reject"]) {
      const res = await t.request("POST", `${V}/transactions/${r.body.id}/${action}`)
      expect([res.status, res.body.code]).toEqual([409, "TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL"])
    }
    const confirmed = await t.request("POST", `${V}/transactions/${r.body.id}/confirm`, { body: { receiptDeliveryConfirmedAt: "2026-02-01T10:00:00Z" } })
    expect(confirmed.body).toMatchObject({ status: "COMPLETED", receiptDeliveryConfirmedAt: "2026-02-01T10:00:00Z" })
    const now = await t.request("POST", `${V}/transactions/${r.body.id}/confirm`)
    expect(now.body.receiptDeliveryConfirmedAt).not.toBe("2026-02-01T10:00:00Z")
    expect((await t.request("POST", `${V}/transactions/${r.body.id}/confirm`, { body: { receiptDeliveryConfirmedAt: "yesterday" } })).status).toBe(400)
  })

  it("lists newest first by default, oldest first with sortOrder=asc, filtered, paged without gaps", async () => {
    const a = await platformExternal(t, "123")
    const ids: Array<string> = []
    for (let i = 0; i < 3; i++) ids.push((await out(t, internal, a.id, 100 + i)).body.id)
    ids.push((await t.request("POST", `${V}/transfer-in`, { body: { source: { accountId: a.id }, destination: { accountId: internal }, amount: 50 } })).body.id)
    const byAccount = await t.request("GET", `${V}/transactions?accountIdentifier=${a.accountNumber}`)
    expect(byAccount.body.data.map((x: { id: string }) => x.id)).toEqual([...ids].reverse())
    const asc = await t.request("GET", `${V}/transactions?accountIdentifier=${encodeURIComponent(a.id)}&sortOrder=asc`)
    expect(asc.body.data.map((x: { id: string }) => x.id)).toEqual(ids)
    const incoming = await t.request("GET", `${V}/transactions?receiverAccountIdentifier=${encodeURIComponent(internal)}&type=INCOMING&senderAccountIdentifier=${a.accountNumber}`)
    expect(incoming.body.data.map((x: { id: string }) => x.id)).toEqual([ids[3]])
    const seen: Array<string> = []
    let cursor: string | undefined
    for (;;) {
      const page = await t.request("GET", `${V}/transactions?accountIdentifier=${a.accountNumber}&limit=3${cursor === undefined ? "" : `&cursor=${cursor}`}`)
      expect(page.body.totalCount).toBe(4)
      seen.push(...page.body.data.map((x: { id: string }) => x.id))
      if (!page.body.hasMore) break
      cursor = page.body.nextCursor
    }
    expect(seen).toEqual([...ids].reverse())
    const failed = await t.request("GET", `${V}/transactions?status=FAILED&customerId=${encodeURIComponent(byAccount.body.data[0].customerId)}`)
    expect(failed.body.data.every((x: { status: string }) => x.status === "FAILED")).toBe(true)
    const empty = await t.request("GET", `${V}/transactions?accountIdentifier=${a.accountNumber}&startDate=2999-01-01T00:00:00Z`)
    expect(empty.body.data).toEqual([])
    const bad = await t.request("GET", `${V}/transactions?sortOrder=sideways&status=LOST&startDate=soon`)
    expect(bad.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(["sortOrder", "startDate", "status"])
  })
})
