import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { advance, balances, fund, getTransaction, paymentWebhooks, platformExternal, platformUsdAccount, V } from "./http-support.ts"

/**
 * The spec's transfer table, every row, for transfer-out and transfer-in, over HTTP on a virtual
 * clock: the 201 answer, then (after advancing) the states, balances and webhooks in order.
 */
const AMOUNT = 12_550

interface Row {
  readonly suffix: string
  /** Status and failure reason once the outcome has played out. */
  readonly final: { readonly status: string; readonly failureReason?: string }
  readonly out: ReadonlyArray<string>
  readonly in: ReadonlyArray<string>
}

const rows: ReadonlyArray<Row> = [
  { suffix: "002", final: { status: "FAILED", failureReason: "LIMIT_EXCEEDED" }, out: ["PENDING", "FAILED"], in: ["PENDING", "FAILED"] },
  { suffix: "003", final: { status: "FAILED", failureReason: "ACCOUNT_INVALID" }, out: ["PENDING", "FAILED"], in: ["PENDING", "FAILED"] },
  { suffix: "004", final: { status: "FAILED", failureReason: "ACCOUNT_CANNOT_RECEIVE" }, out: ["PENDING", "PROCESSING", "FAILED"], in: ["PENDING", "FAILED"] },
  { suffix: "005", final: { status: "FAILED", failureReason: "PAYOUT_RETURNED" }, out: ["PENDING", "FAILED"], in: ["PENDING", "FAILED"] },
  { suffix: "123", final: { status: "COMPLETED" }, out: ["PENDING", "PROCESSING", "COMPLETED"], in: ["PENDING", "COMPLETED"] }
]

describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("transfer outcomes by suffix over HTTP (%s store)", (kind) => {
  let t: TestServer
  let internal: string
  beforeAll(async () => {
    t = await startTestServer(kind, { clock: "virtual" })
    internal = await platformUsdAccount(t)
    await fund(t, internal, 1_000_000)
  })
  afterAll(async () => t.close())

  it.each(rows)("transfer-out to an account ending $suffix", async (row) => {
    const external = await platformExternal(t, row.suffix)
    const before = await balances(t)
    const r = await t.request("POST", `${V}/transfer-out`, { body: { source: { accountId: internal }, destination: { accountId: external.id }, amount: AMOUNT } })
    expect(r.status).toBe(201)
    expect(r.body).toMatchObject({ type: "OUTGOING", direction: "DEBIT", status: "PENDING", sentAmount: { amount: AMOUNT, currency: { code: "USD" } }, paymentRail: "ACH" })
    if (row.suffix === "005") {
      // Held: not spendable, still the account's.
      expect(await balances(t)).toEqual({ available: before.available - AMOUNT, total: before.total })
      await advance(t, 29)
      expect((await getTransaction(t, r.body.id)).status).toBe("PENDING")
    }
    await advance(t, 1)
    const after = await getTransaction(t, r.body.id)
    expect(after).toMatchObject(row.final)
    expect(after.refund).toBeUndefined()
    const moved = row.final.status === "COMPLETED" ? AMOUNT : 0
    expect(await balances(t)).toEqual({ available: before.available - moved, total: before.total - moved })
    const hooks = await paymentWebhooks(t, r.body.id)
    expect(hooks.map((h) => h.type)).toEqual(row.out.map((s) => `OUTGOING_PAYMENT.${s}`))
    expect(hooks.map((h) => h.data.status)).toEqual(row.out)
    expect(hooks.at(-1)!.data).toEqual(after)
  })

  it.each(rows)("transfer-in from an account ending $suffix", async (row) => {
    const external = await platformExternal(t, row.suffix)
    const before = await balances(t)
    const r = await t.request("POST", `${V}/transfer-in`, { body: { source: { accountId: external.id }, destination: { accountId: internal }, amount: AMOUNT } })
    expect(r.status).toBe(201)
    expect(r.body).toMatchObject({ type: "INCOMING", direction: "CREDIT", status: "PENDING", receivedAmount: { amount: AMOUNT } })
    if (row.suffix === "005") {
      // Announced: counted in totalBalance, not yet spendable.
      expect(await balances(t)).toEqual({ available: before.available, total: before.total + AMOUNT })
      await advance(t, 29)
      expect((await getTransaction(t, r.body.id)).status).toBe("PENDING")
    }
    await advance(t, 1)
    const after = await getTransaction(t, r.body.id)
    expect(after).toMatchObject({ status: row.final.status, ...(row.final.status === "FAILED" ? { failureReason: "COLLECTION_FAILED" } : {}) })
    const moved = row.final.status === "COMPLETED" ? AMOUNT : 0
    expect(await balances(t)).toEqual({ available: before.available + moved, total: before.total + moved })
    const hooks = await paymentWebhooks(t, r.body.id)
    expect(hooks.map((h) => h.type)).toEqual(row.in.map((s) => `INCOMING_PAYMENT.${s}`))
    expect(hooks.at(-1)!.data).toEqual(after)
  })
})
