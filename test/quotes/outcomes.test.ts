import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { accountQuote, advance, balances, execute, fund, platformBankAccount, platformUsdAccount, quote, transaction, V, webhooksAbout } from "./support.ts"

const FUNDED = 1_000_000
const SENT = 25_000

/**
 * The spec's quote-destination table, one row each: the transaction's states, its refund, the
 * source's balances and the webhooks, in order, before and after the clock moves.
 */
interface Row {
  readonly suffix: string
  /** Right after execute. */
  readonly now: { status: string; quote: string; refund?: string; failureReason?: string; available: number; total: number; webhooks: ReadonlyArray<string> }
  /** After `advance` seconds (if the row has a delayed step). */
  readonly later?: { seconds: number; before?: { seconds: number; status: string }; status: string; quote: string; refund?: string; failureReason?: string; available: number; total: number; webhooks: ReadonlyArray<string> }
}

const P = (s: string) => `OUTGOING_PAYMENT.${s}`
const spent = FUNDED - SENT

const rows: ReadonlyArray<Row> = [
  { suffix: "002", now: { status: "FAILED", quote: "FAILED", refund: "COMPLETED", failureReason: "QUOTE_EXECUTION_FAILED", available: FUNDED, total: FUNDED, webhooks: [P("PENDING"), P("PROCESSING"), P("FAILED"), P("REFUND_PENDING"), P("REFUND_COMPLETED")] } },
  {
    suffix: "003",
    now: { status: "PROCESSING", quote: "PROCESSING", available: spent, total: FUNDED, webhooks: [P("PENDING"), P("PROCESSING")] },
    later: { seconds: 6 * 60, before: { seconds: 5 * 60, status: "PROCESSING" }, status: "COMPLETED", quote: "COMPLETED", available: spent, total: spent, webhooks: [P("PENDING"), P("PROCESSING"), P("COMPLETED")] }
  },
  { suffix: "004", now: { status: "FAILED", quote: "FAILED", refund: "COMPLETED", failureReason: "ACCOUNT_CANNOT_RECEIVE", available: FUNDED, total: FUNDED, webhooks: [P("PENDING"), P("PROCESSING"), P("FAILED"), P("REFUND_PENDING"), P("REFUND_COMPLETED")] } },
  {
    suffix: "005",
    now: { status: "COMPLETED", quote: "COMPLETED", available: spent, total: spent, webhooks: [P("PENDING"), P("PROCESSING"), P("COMPLETED")] },
    later: {
      seconds: 31,
      status: "FAILED",
      quote: "FAILED",
      refund: "COMPLETED",
      failureReason: "PAYOUT_RETURNED",
      available: FUNDED,
      total: FUNDED,
      webhooks: [P("PENDING"), P("PROCESSING"), P("COMPLETED"), P("FAILED"), P("REFUND_PENDING"), P("REFUND_COMPLETED")]
    }
  },
  { suffix: "006", now: { status: "COMPLETED", quote: "COMPLETED", refund: "COMPLETED", available: FUNDED, total: FUNDED, webhooks: [P("PENDING"), P("PROCESSING"), P("REFUND_PENDING"), P("REFUND_COMPLETED"), P("COMPLETED")] } },
  { suffix: "007", now: { status: "FAILED", quote: "FAILED", refund: "FAILED", failureReason: "ACCOUNT_CANNOT_RECEIVE", available: spent, total: spent, webhooks: [P("PENDING"), P("PROCESSING"), P("FAILED"), P("REFUND_PENDING"), P("REFUND_FAILED")] } },
  { suffix: "010", now: { status: "COMPLETED", quote: "COMPLETED", available: spent, total: spent, webhooks: [P("PENDING"), P("PROCESSING"), P("COMPLETED")] } }
]

describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("quote destination outcomes on a virtual clock (%s store)", (kind) => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer(kind, { clock: "virtual" })
  })
  afterAll(async () => t.close())

  // Each row on a fresh platform account: a new platform per row keeps the balances apart.
  const fresh = async () => {
    const source = await platformUsdAccount(t)
    const before = await balances(t, source)
    return { source, base: before.available }
  }

  it.each(rows)("suffix $suffix", async (row) => {
    const { source, base } = await fresh()
    await fund(t, source, FUNDED)
    const destination = await platformBankAccount(t, row.suffix)
    const q = await quote(t, accountQuote(source, destination, SENT))
    expect(q.status, JSON.stringify(q.body)).toBe(201)
    expect(q.body).toMatchObject({ status: "PENDING", totalSendingAmount: SENT, source: { accountId: source }, destination: { accountId: destination } })
    const x = await execute(t, q.body.id)
    expect(x.status, JSON.stringify(x.body)).toBe(200)
    expect(x.body.status).toBe(row.now.quote)

    const check = async (s: NonNullable<Row["later"]> | Row["now"]) => {
      const tx = await transaction(t, q.body.transactionId)
      expect(tx).toMatchObject({ id: q.body.transactionId, type: "OUTGOING", direction: "DEBIT", status: s.status, quoteId: q.body.id })
      expect(tx.refund?.status).toBe(s.refund)
      expect(tx.failureReason).toBe(s.failureReason)
      expect(await balances(t, source)).toEqual({ available: base + s.available, total: base + s.total })
      const hooks = await webhooksAbout(t, q.body.transactionId)
      expect(hooks.map((h) => h.type)).toEqual(s.webhooks)
      expect(hooks.every((h) => h.data.id === q.body.transactionId)).toBe(true)
      expect((await t.request("GET", `${V}/quotes/${q.body.id}`)).body.status).toBe(s.quote)
    }
    await check(row.now)
    if (row.later !== undefined) {
      if (row.later.before !== undefined) {
        await advance(t, row.later.before.seconds)
        expect((await transaction(t, q.body.transactionId)).status).toBe(row.later.before.status)
        await advance(t, row.later.seconds - row.later.before.seconds)
      } else await advance(t, row.later.seconds)
      await check(row.later)
    }
  })
})
