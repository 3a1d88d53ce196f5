import { expect } from "vitest"
import type { TestServer } from "../support/server.ts"
import { checkWebhook } from "../support/openapi-checker.ts"

export const V = "/2025-10-13"

let serial = 0

/**
 * A KYC-approved individual and its USDB internal account, funded with `amount`. The sandbox
 * refuses funding sources whose id ends 002 or 003: such a (random) account is skipped by
 * creating another customer.
 */
export const cardholder = async (t: TestServer, amount = 0, fullName = "Card Holder"): Promise<{ customerId: string; accountId: string }> => {
  for (;;) {
    const c = await t.request("POST", `${V}/customers`, { body: { customerType: "INDIVIDUAL", fullName, platformCustomerId: `holder-${++serial}-${Date.now()}` } })
    expect(c.status, JSON.stringify(c.body)).toBe(201)
    const accounts = await t.request("GET", `${V}/customers/internal-accounts?customerId=${encodeURIComponent(c.body.id)}`)
    const accountId = accounts.body.data[0].id as string
    if (["002", "003"].includes(accountId.slice(-3))) continue
    if (amount > 0) expect((await t.request("POST", `${V}/sandbox/internal-accounts/${accountId}/fund`, { body: { amount } })).status).toBe(200)
    return { customerId: c.body.id, accountId }
  }
}

/** Issues a card (default: ACTIVE at once) and answers its body. */
export const issue = async (t: TestServer, holder: { customerId: string; accountId: string }, over: Record<string, unknown> = {}) => {
  const r = await t.request("POST", `${V}/cards`, {
    body: { cardholderId: holder.customerId, form: "VIRTUAL", fundingSources: [holder.accountId], platformCardId: `card-${++serial}-x`, ...over }
  })
  expect(r.status, JSON.stringify(r.body)).toBe(201)
  return r.body
}

export const patchCard = (t: TestServer, id: string, body: unknown) => t.request("PATCH", `${V}/cards/${id}`, { body })

export const simulate = (t: TestServer, cardId: string, kind: string, body: unknown) => t.request("POST", `${V}/sandbox/cards/${cardId}/simulate/${kind}`, { body })

export const merchant = (descriptor = "BLUE BOTTLE COFFEE SF") => ({ descriptor, mcc: "5814", country: "US" })

/** An approved authorization of `amount`: answers the card transaction id. */
export const authorize = async (t: TestServer, cardId: string, amount: number, descriptor?: string, kind = "authorization") => {
  const r = await simulate(t, cardId, kind, { amount, currency: { code: "USDB" }, merchant: merchant(descriptor) })
  expect(r.status).toBe(202)
  expect(r.body.declineReason, JSON.stringify(r.body)).toBeUndefined()
  return r.body.cardTransactionId as string
}

/** The account's available and total balances. */
export const balances = async (t: TestServer, customerId: string) => {
  const a = (await t.request("GET", `${V}/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}`)).body.data[0]
  return { available: a.balance.amount as number, total: a.totalBalance.amount as number }
}

export const getTransaction = async (t: TestServer, id: string) => {
  const r = await t.request("GET", `${V}/transactions/${id}`)
  expect(r.status).toBe(200)
  return r.body
}

/** The webhooks about a resource, oldest first, each checked against the reference's payload schema. */
export const webhooksAbout = async (t: TestServer, resourceId: string) => {
  const events = (await t.request("GET", `${V}/sandbox/events?resourceId=${encodeURIComponent(resourceId)}&limit=100`)).body.data as Array<{
    id: string
    type: string
    timestamp: string
    data: any
  }>
  for (const e of events) {
    const schema = e.type.startsWith("CARD_TRANSACTION.") ? "CardTransactionWebhook" : e.type === "CARD.STATE_CHANGE" ? "CardStateChangeWebhook" : "CardFundingSourceChangeWebhook"
    expect(checkWebhook(schema, { id: e.id, type: e.type, timestamp: e.timestamp, data: e.data }), e.type).toEqual([])
  }
  return events
}

export const advance = async (t: TestServer, seconds: number) => {
  const r = await t.request("POST", `${V}/sandbox/clock/advance`, { body: { seconds } })
  expect(r.status).toBe(200)
}
