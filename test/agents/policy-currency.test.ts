import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { connectedAgent, customerWithAccounts, policy, V } from "./support.ts"

/**
 * A policy's currencies must be ones the sandbox prices (DECISIONS #389), and changing the
 * spending currency converts what the agent has spent today and this month (DECISIONS #390).
 */
describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("an agent policy's currency (%s store)", (kind) => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer(kind, { clock: "virtual" })
  })
  afterAll(async () => t.close())

  const fieldsOf = (body: any) => body.details.errors.map((e: { field: string }) => e.field)

  it("a currency the sandbox does not price is 400 INVALID_INPUT on its field, at creation and in a PATCH", async () => {
    const c = await customerWithAccounts(t, 0)
    const created = await t.request("POST", `${V}/agents`, { body: { name: "z", customerId: c.customerId, policy: policy({ spendingLimits: { currency: "ZZZ", perTransactionLimit: 10 }, approvalThresholds: { currency: "QQQ", amount: 5 } }) } })
    expect([created.status, created.body.code]).toEqual([400, "INVALID_INPUT"])
    expect(fieldsOf(created.body)).toEqual(expect.arrayContaining(["policy.spendingLimits.currency", "policy.approvalThresholds.currency"]))
    expect((await t.request("GET", `${V}/agents?customerId=${encodeURIComponent(c.customerId)}`)).body.data).toEqual([])
    const { agentId } = await connectedAgent(t, c.customerId)
    const patched = await t.request("PATCH", `${V}/agents/${agentId}/policy`, { body: { spendingLimits: { currency: "ZZZ" } } })
    expect([patched.status, patched.body.code]).toEqual([400, "INVALID_INPUT"])
    expect(fieldsOf(patched.body)).toEqual(["spendingLimits.currency"])
    expect((await t.request("GET", `${V}/agents/${agentId}`)).body.policy.spendingLimits.currency).toBe("USDB")
  })

  it("switching the spending currency converts today's and this month's spend, so the new limits count it", async () => {
    const c = await customerWithAccounts(t)
    const body = (amount: number) => ({ source: { accountId: c.walletId }, destination: { accountId: c.externalId }, amount })
    const a = await connectedAgent(t, c.customerId, policy({ spendingLimits: { currency: "USDB", perTransactionLimit: 10_000_000, dailyLimit: 10_000_000, monthlyLimit: 50_000_000 } }))
    const spent = await t.request("POST", `${V}/agents/me/transfer-out`, { auth: a.bearer, body: body(9_000_000) })
    expect(spent.status, JSON.stringify(spent.body)).toBe(201)
    // 9 USDB is 900 US cents (the two are pegged); the daily limit becomes $10.
    const patched = await t.request("PATCH", `${V}/agents/${a.agentId}/policy`, { body: { spendingLimits: { currency: "USD", perTransactionLimit: 1_000, dailyLimit: 1_000, monthlyLimit: 5_000 } } })
    expect(patched.status, JSON.stringify(patched.body)).toBe(200)
    expect(patched.body.usage).toMatchObject({ dailySpend: 900, monthlySpend: 900, dailyTransactionCount: 1 })
    expect((await t.request("POST", `${V}/agents/me/transfer-out`, { auth: a.bearer, body: body(500_000) })).status).toBe(201)
    const over = await t.request("POST", `${V}/agents/me/transfer-out`, { auth: a.bearer, body: body(600_000) })
    expect([over.status, over.body.details?.reason]).toEqual([403, "DAILY_LIMIT_EXCEEDED"])
    // Changing the limits only, in the same currency, leaves the counters as they are.
    const same = await t.request("PATCH", `${V}/agents/${a.agentId}/policy`, { body: { spendingLimits: { dailyLimit: 2_000 } } })
    expect(same.body.usage).toMatchObject({ dailySpend: 950, monthlySpend: 950 })
  })
})
