import { expect } from "vitest"
import type { TestServer } from "../support/server.ts"

/** What these helpers need of a server: its request helper (an in-process server or a `tessera serve` process). */
type Client = Pick<TestServer, "request">
import { referenceSchemaProblems } from "../support/openapi-checker.ts"
import { usd } from "../external-accounts/support.ts"

export const V = "/2025-10-13"

let serial = 0
/** A platform external USD account whose account number ends in `suffix` (the sandbox's outcome key). */
export const platformExternal = async (t: Client, suffix: string) => {
  const accountNumber = `${String(100000 + ++serial)}${suffix}`
  const r = await t.request("POST", `${V}/platform/external-accounts`, { body: usd(accountNumber) })
  expect(r.status, JSON.stringify(r.body)).toBe(201)
  return { id: r.body.id as string, accountNumber }
}

export const platformUsdAccount = async (t: Client) => (await t.request("GET", `${V}/platform/internal-accounts`)).body.data[0].id as string

/** The platform USD account's `balance` (available) and `totalBalance`. */
export const balances = async (t: Client) => {
  const a = (await t.request("GET", `${V}/platform/internal-accounts`)).body.data[0]
  return { available: a.balance.amount as number, total: a.totalBalance.amount as number }
}

export const fund = async (t: Client, accountId: string, amount: number) => {
  const r = await t.request("POST", `${V}/sandbox/internal-accounts/${accountId}/fund`, { body: { amount } })
  expect(r.status).toBe(200)
}

export const advance = async (t: Client, seconds: number) => {
  const r = await t.request("POST", `${V}/sandbox/clock/advance`, { body: { seconds } })
  expect(r.status).toBe(200)
}

export const getTransaction = async (t: Client, id: string) => {
  const r = await t.request("GET", `${V}/transactions/${id}`)
  expect(r.status).toBe(200)
  return r.body
}

/**
 * The payment webhooks published about a transaction, in order, each checked against the
 * reference's webhook schema for its family.
 */
export const paymentWebhooks = async (t: Client, id: string) => {
  const events = (await t.request("GET", `${V}/sandbox/events?resourceId=${encodeURIComponent(id)}&limit=100`)).body.data as Array<{
    id: string
    type: string
    timestamp: string
    data: { status: string; refund?: { status: string } }
  }>
  for (const e of events) {
    const schema = e.type.startsWith("OUTGOING_PAYMENT.") ? "OutgoingPaymentWebhook" : "IncomingPaymentWebhook"
    expect(referenceSchemaProblems(schema, { id: e.id, type: e.type, timestamp: e.timestamp, data: e.data }), e.type).toEqual([])
  }
  return events
}
