import { expect } from "vitest"
import { individual, type TestServer } from "../support/server.ts"
import { usd, wallet } from "../external-accounts/support.ts"

export const V = "/2025-10-13"

let serial = 0

/** A customer with its embedded wallet (USDB) funded, a USDB wallet and a USD bank account of its own. */
export const customerWithAccounts = async (t: Pick<TestServer, "request">, funded = 50_000_000) => {
  const n = ++serial
  const c = await t.request("POST", `${V}/customers`, { body: individual({ email: undefined, platformCustomerId: `agent-owner-${n}-${Math.random()}` }) })
  expect(c.status, JSON.stringify(c.body)).toBe(201)
  const customerId = c.body.id as string
  const walletId = (await t.request("GET", `${V}/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}`)).body.data[0].id as string
  if (funded > 0) expect((await t.request("POST", `${V}/sandbox/internal-accounts/${walletId}/fund`, { body: { amount: funded } })).status).toBe(200)
  const ext = await t.request("POST", `${V}/customers/external-accounts`, {
    body: { ...wallet("BASE_WALLET", "0x" + String(n).padStart(2, "0").repeat(20)), currency: "USDB", customerId }
  })
  expect(ext.status, JSON.stringify(ext.body)).toBe(201)
  const bank = await t.request("POST", `${V}/customers/external-accounts`, { body: { ...usd(`5550${String(n).padStart(5, "0")}`), customerId } })
  expect(bank.status, JSON.stringify(bank.body)).toBe(201)
  return { customerId, walletId, externalId: ext.body.id as string, bankId: bank.body.id as string }
}

export const policy = (over: Record<string, unknown> = {}) => ({
  permissions: ["VIEW_TRANSACTIONS", "CREATE_TRANSFERS", "CREATE_QUOTES", "EXECUTE_QUOTES", "MANAGE_EXTERNAL_ACCOUNTS"],
  defaultExecutionMode: "AUTO",
  spendingLimits: { currency: "USDB", perTransactionLimit: 10_000_000, dailyLimit: 20_000_000, dailyTransactionLimit: 10, monthlyLimit: null },
  ...over
})

/** Creates an agent and redeems its device code: the agent's id and Bearer access token. */
export const connectedAgent = async (t: Pick<TestServer, "request">, customerId: string, p: Record<string, unknown> = policy()) => {
  const created = await t.request("POST", `${V}/agents`, { body: { name: "Payroll agent", customerId, policy: p } })
  expect(created.status, JSON.stringify(created.body)).toBe(201)
  const redeemed = await t.request("POST", `${V}/agents/device-codes/${created.body.deviceCode.code}/redeem`, { auth: null })
  expect(redeemed.status, JSON.stringify(redeemed.body)).toBe(200)
  const token = redeemed.body.accessToken as string
  return { agentId: created.body.agent.id as string, token, bearer: `Bearer ${token}` }
}

export const walletBalance = async (t: Pick<TestServer, "request">, customerId: string) =>
  (await t.request("GET", `${V}/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}`)).body.data[0].balance.amount as number
