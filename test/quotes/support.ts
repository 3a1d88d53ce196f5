import { expect } from "vitest"
import type { TestServer } from "../support/server.ts"

export const V = "/2025-10-13"

let counter = 0
/** A fresh account number (identifiers are unique per owner) ending in `suffix`. */
export const accountNumber = (suffix: string) => `${String(Date.now() % 1e7).padStart(7, "0")}${String(++counter).padStart(4, "0")}${suffix}`

/** The platform's own USD account (every platform has one). */
export const platformUsdAccount = async (t: TestServer): Promise<string> => {
  const r = await t.request("GET", `${V}/platform/internal-accounts`)
  expect(r.status).toBe(200)
  return r.body.data.find((a: any) => a.balance.currency.code === "USD").id
}

export const fund = async (t: TestServer, accountId: string, amount: number) => {
  const r = await t.request("POST", `${V}/sandbox/internal-accounts/${accountId}/fund`, { body: { amount } })
  expect(r.status, JSON.stringify(r.body)).toBe(200)
  return r.body
}

/** A platform USD bank account whose account number ends in `suffix` (the sandbox outcome). */
export const platformBankAccount = async (t: TestServer, suffix: string, currency = "USD") => {
  const r = await t.request("POST", `${V}/platform/external-accounts`, {
    body: {
      currency,
      accountInfo: {
        accountType: "USD_ACCOUNT",
        accountNumber: accountNumber(suffix),
        routingNumber: "021000021",
        beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Jane Smith" }
      }
    }
  })
  expect(r.status, JSON.stringify(r.body)).toBe(201)
  return r.body.id as string
}

export const balances = async (t: TestServer, accountId: string) => {
  const r = await t.request("GET", `${V}/platform/internal-accounts`)
  const a = r.body.data.find((x: any) => x.id === accountId)
  if (a === undefined) {
    const c = await t.request("GET", `${V}/customers/internal-accounts?limit=100`)
    const b = c.body.data.find((x: any) => x.id === accountId)
    return { available: b.balance.amount as number, total: b.totalBalance.amount as number }
  }
  return { available: a.balance.amount as number, total: a.totalBalance.amount as number }
}

export const quote = (t: TestServer, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  t.request("POST", `${V}/quotes`, { body, headers })

export const accountQuote = (source: string, destination: string, amount: number, over: Record<string, unknown> = {}) => ({
  source: { sourceType: "ACCOUNT", accountId: source },
  destination: { destinationType: "ACCOUNT", accountId: destination },
  lockedCurrencySide: "SENDING",
  lockedCurrencyAmount: amount,
  ...over
})

export const execute = (t: TestServer, quoteId: string, headers: Record<string, string> = {}, body?: unknown) =>
  t.request("POST", `${V}/quotes/${quoteId}/execute`, { headers, ...(body === undefined ? {} : { body }) })

export const advance = async (t: TestServer, seconds: number) => {
  const r = await t.request("POST", `${V}/sandbox/clock/advance`, { body: { seconds } })
  expect(r.status, JSON.stringify(r.body)).toBe(200)
}

export const transaction = async (t: TestServer, id: string) => {
  const r = await t.request("GET", `${V}/transactions/${id}`)
  expect(r.status, JSON.stringify(r.body)).toBe(200)
  return r.body
}

/** The webhooks published about a resource, oldest first. */
export const webhooksAbout = async (t: TestServer, resourceId: string): Promise<ReadonlyArray<{ type: string; data: any }>> =>
  (await t.request("GET", `${V}/sandbox/events?resourceId=${encodeURIComponent(resourceId)}&limit=100`)).body.data
