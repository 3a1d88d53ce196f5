import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { referenceSchemaProblems } from "../support/openapi-checker.ts"
import { connectedAgent, customerWithAccounts, policy, V, walletBalance } from "./support.ts"

/**
 * Agents over HTTP (DECISIONS #370–#386): the device-code flow, AgentAuth, each agent's policy
 * deciding its transfers, and the platform's approvals; every response checked against the
 * reference by the test server.
 */
describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("agents over HTTP (%s store)", (kind) => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer(kind, { clock: "virtual" })
  })
  afterAll(async () => t.close())

  it("creating an agent issues a device code; redeeming it once connects the agent and yields its Bearer token", async () => {
    const { customerId } = await customerWithAccounts(t, 0)
    const created = await t.request("POST", `${V}/agents`, { body: { name: "Bookkeeper", customerId, policy: policy() } })
    expect(created.status).toBe(201)
    expect(created.body.agent).toMatchObject({ name: "Bookkeeper", customerId, isPaused: false, isConnected: false, usage: { dailySpend: 0, dailyTransactionCount: 0, monthlySpend: 0 } })
    const code = created.body.deviceCode.code as string
    expect(code).toMatch(/^GRID-AGENT-[A-Z0-9]{4}-[A-Z0-9]{4}$/)
    expect((await t.request("GET", `${V}/agents/device-codes/${code}/status`)).body).toEqual({ code, redeemed: false })
    const redeemed = await t.request("POST", `${V}/agents/device-codes/${code}/redeem`, { auth: null })
    expect(redeemed.status).toBe(200)
    expect(redeemed.body).toMatchObject({ agentId: created.body.agent.id, agentName: "Bookkeeper", policy: policy() })
    expect(redeemed.body.accessToken).toMatch(/^gat_[0-9a-f]{40}$/)
    expect((await t.request("GET", `${V}/agents/device-codes/${code}/status`)).body).toEqual({ code, redeemed: true })
    const again = await t.request("POST", `${V}/agents/device-codes/${code}/redeem`, { auth: null })
    expect([again.status, again.body.details.reason]).toEqual([400, "DEVICE_CODE_ALREADY_REDEEMED"])
    expect((await t.request("GET", `${V}/agents/${created.body.agent.id}`)).body.isConnected).toBe(true)
    const regenerate = await t.request("POST", `${V}/agents/${created.body.agent.id}/device-codes`)
    expect(regenerate.status).toBe(409)
    const me = await t.request("GET", `${V}/agents/me`, { auth: `Bearer ${redeemed.body.accessToken}` })
    expect(me.status).toBe(200)
    expect(me.body.id).toBe(created.body.agent.id)
  })

  it("a regenerated code replaces the unredeemed one and an expired code is refused", async () => {
    const { customerId } = await customerWithAccounts(t, 0)
    const created = await t.request("POST", `${V}/agents`, { body: { name: "Late", customerId, policy: policy() } })
    const first = created.body.deviceCode.code as string
    const second = await t.request("POST", `${V}/agents/${created.body.agent.id}/device-codes`)
    expect(second.status).toBe(201)
    expect(second.body.code).not.toBe(first)
    expect((await t.request("GET", `${V}/agents/device-codes/${first}/status`)).status).toBe(404)
    expect((await t.request("POST", `${V}/agents/device-codes/${first}/redeem`, { auth: null })).status).toBe(404)
    expect((await t.request("POST", `${V}/sandbox/clock/advance`, { body: { seconds: 24 * 3600 } })).status).toBe(200)
    const late = await t.request("POST", `${V}/agents/device-codes/${second.body.code}/redeem`, { auth: null })
    expect([late.status, late.body.details.reason]).toEqual([400, "DEVICE_CODE_EXPIRED"])
    expect((await t.request("GET", `${V}/agents/device-codes/${second.body.code}/status`)).body.redeemed).toBe(false)
  })

  it("two redemptions of one code at once: exactly one gets a token", async () => {
    const { customerId } = await customerWithAccounts(t, 0)
    const created = await t.request("POST", `${V}/agents`, { body: { name: "Racer", customerId, policy: policy() } })
    const code = created.body.deviceCode.code as string
    const answers = await Promise.all([1, 2, 3].map(() => t.request("POST", `${V}/agents/device-codes/${code}/redeem`, { auth: null })))
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400, 400])
    const token = answers.find((r) => r.status === 200)!.body.accessToken as string
    expect((await t.request("GET", `${V}/agents/me`, { auth: `Bearer ${token}` })).status).toBe(200)
  })

  it("/agents/me takes only a live agent credential: none, a wrong one, the platform's Basic, or a deleted agent's is 401", async () => {
    const { customerId } = await customerWithAccounts(t, 0)
    const a = await connectedAgent(t, customerId)
    expect((await t.request("GET", `${V}/agents/me`, { auth: null })).status).toBe(401)
    expect((await t.request("GET", `${V}/agents/me`)).status).toBe(401)
    expect((await t.request("GET", `${V}/agents/me`, { auth: `Bearer gat_${"0".repeat(40)}` })).status).toBe(401)
    // The agent's token is no platform credential either.
    expect((await t.request("GET", `${V}/agents`, { auth: a.bearer })).status).toBe(401)
    expect((await t.request("GET", `${V}/agents/me`, { auth: a.bearer })).status).toBe(200)
    expect((await t.request("DELETE", `${V}/agents/${a.agentId}`)).status).toBe(204)
    const gone = await t.request("GET", `${V}/agents/me`, { auth: a.bearer })
    expect(gone.status).toBe(401)
    expect(gone.headers.get("www-authenticate")).toMatch(/^Bearer /)
    expect((await t.request("GET", `${V}/agents/${a.agentId}`)).status).toBe(404)
  })

  it("an AUTO agent's transfer within its limits runs at once: APPROVED with its transaction, the money moved, the usage counted", async () => {
    const c = await customerWithAccounts(t)
    const a = await connectedAgent(t, c.customerId)
    const before = await walletBalance(t, c.customerId)
    const r = await t.request("POST", `${V}/agents/me/transfer-out`, { auth: a.bearer, body: { source: { accountId: c.walletId }, destination: { accountId: c.externalId }, amount: 1_000_000 } })
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    expect(r.body).toMatchObject({ agentId: a.agentId, customerId: c.customerId, status: "APPROVED", type: "TRANSFER_OUT", transferDetails: { amount: 1_000_000, currency: "USDB", sourceAccountId: c.walletId, destinationAccountId: c.externalId } })
    expect(r.body.transaction.id).toMatch(/^Transaction:/)
    expect(await walletBalance(t, c.customerId)).toBe(before - 1_000_000)
    const me = await t.request("GET", `${V}/agents/me`, { auth: a.bearer })
    expect(me.body.usage).toMatchObject({ dailyTransactionCount: 1, dailySpend: 1_000_000, monthlySpend: 1_000_000 })
    const listed = await t.request("GET", `${V}/agents/me/transactions`, { auth: a.bearer })
    expect(listed.body.data.map((x: { id: string }) => x.id)).toContain(r.body.transaction.id)
    expect((await t.request("GET", `${V}/agents/me/transactions/${r.body.transaction.id}`, { auth: a.bearer })).status).toBe(200)
  })

  it("an action that needs approval waits: PENDING_APPROVAL, a webhook, nothing moved; approved it runs once, and a second decision is 409", async () => {
    const c = await customerWithAccounts(t)
    const a = await connectedAgent(t, c.customerId, policy({ defaultExecutionMode: "APPROVAL_REQUIRED" }))
    const before = await walletBalance(t, c.customerId)
    const r = await t.request("POST", `${V}/agents/me/transfer-out`, { auth: a.bearer, body: { source: { accountId: c.walletId }, destination: { accountId: c.externalId }, amount: 2_000_000 } })
    expect(r.status).toBe(201)
    expect(r.body.status).toBe("PENDING_APPROVAL")
    expect(r.body.transaction).toBeUndefined()
    expect(await walletBalance(t, c.customerId)).toBe(before)
    const events = (await t.request("GET", `${V}/sandbox/events?resourceId=${encodeURIComponent(r.body.id)}`)).body.data
    expect(events.map((e: { type: string }) => e.type)).toEqual(["AGENT_ACTION.PENDING_APPROVAL"])
    expect(referenceSchemaProblems("AgentActionWebhook", { id: events[0].id, type: events[0].type, timestamp: events[0].timestamp, data: events[0].data })).toEqual([])
    const queue = await t.request("GET", `${V}/agents/approvals?agentId=${encodeURIComponent(a.agentId)}`)
    expect(queue.body.data.map((x: { id: string }) => x.id)).toEqual([r.body.id])
    const approved = await t.request("POST", `${V}/agents/${a.agentId}/actions/${r.body.id}/approve`)
    expect(approved.status).toBe(200)
    expect(approved.body.status).toBe("APPROVED")
    expect(approved.body.transaction.id).toMatch(/^Transaction:/)
    expect(await walletBalance(t, c.customerId)).toBe(before - 2_000_000)
    expect((await t.request("POST", `${V}/agents/${a.agentId}/actions/${r.body.id}/approve`)).status).toBe(409)
    expect((await t.request("POST", `${V}/agents/${a.agentId}/actions/${r.body.id}/reject`)).status).toBe(409)
    expect(await walletBalance(t, c.customerId)).toBe(before - 2_000_000)
    expect((await t.request("GET", `${V}/agents/approvals?agentId=${encodeURIComponent(a.agentId)}`)).body.data).toEqual([])
    const polled = await t.request("GET", `${V}/agents/me/actions/${r.body.id}`, { auth: a.bearer })
    expect(polled.body.status).toBe("APPROVED")
  })

  it("a rejected action never runs; one past its approval window fails when approved, and nothing moves", async () => {
    const c = await customerWithAccounts(t)
    const a = await connectedAgent(t, c.customerId, policy({ defaultExecutionMode: "APPROVAL_REQUIRED" }))
    const before = await walletBalance(t, c.customerId)
    const body = { source: { accountId: c.walletId }, destination: { accountId: c.externalId }, amount: 500_000 }
    const one = (await t.request("POST", `${V}/agents/me/transfer-out`, { auth: a.bearer, body })).body
    const two = (await t.request("POST", `${V}/agents/me/transfer-out`, { auth: a.bearer, body })).body
    const rejected = await t.request("POST", `${V}/agents/${a.agentId}/actions/${one.id}/reject`, { body: { reason: "Not this week" } })
    expect(rejected.body).toMatchObject({ status: "REJECTED", rejectionReason: "Not this week" })
    expect((await t.request("POST", `${V}/agents/${a.agentId}/actions/${one.id}/approve`)).status).toBe(409)
    expect((await t.request("POST", `${V}/sandbox/clock/advance`, { body: { seconds: 7 * 24 * 3600 } })).status).toBe(200)
    const late = await t.request("POST", `${V}/agents/${a.agentId}/actions/${two.id}/approve`)
    expect(late.status).toBe(200)
    expect(late.body.status).toBe("FAILED")
    expect(late.body.transaction).toBeUndefined()
    expect(await walletBalance(t, c.customerId)).toBe(before)
    const mine = await t.request("GET", `${V}/agents/me/actions?status=REJECTED`, { auth: a.bearer })
    expect(mine.body.data.map((x: { id: string }) => x.id)).toEqual([one.id])
  })

  it("an approved action that cannot run is FAILED, with its money where it was", async () => {
    const c = await customerWithAccounts(t, 1_000)
    const a = await connectedAgent(t, c.customerId, policy({ defaultExecutionMode: "APPROVAL_REQUIRED" }))
    const r = await t.request("POST", `${V}/agents/me/transfer-out`, { auth: a.bearer, body: { source: { accountId: c.walletId }, destination: { accountId: c.externalId }, amount: 900_000 } })
    const approved = await t.request("POST", `${V}/agents/${a.agentId}/actions/${r.body.id}/approve`)
    expect([approved.status, approved.body.status]).toEqual([200, "FAILED"])
    expect(await walletBalance(t, c.customerId)).toBe(1_000)
    expect((await t.request("GET", `${V}/agents/${a.agentId}`)).body.usage.dailyTransactionCount).toBe(0)
  })

  it("an agent's transfer-in pulls into its customer's account through the platform's transfer rules", async () => {
    const c = await customerWithAccounts(t, 0)
    const a = await connectedAgent(t, c.customerId)
    const r = await t.request("POST", `${V}/agents/me/transfer-in`, { auth: a.bearer, body: { source: { accountId: c.externalId }, destination: { accountId: c.walletId }, amount: 300_000 } })
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    expect(r.body).toMatchObject({ type: "TRANSFER_IN", status: "APPROVED", transferDetails: { sourceAccountId: c.externalId, destinationAccountId: c.walletId, amount: 300_000, currency: "USDB" } })
    expect(r.body.transaction).toMatchObject({ type: "INCOMING", customerId: c.customerId })
    // Not the platform's transfer-in: its bank account is USD, the wallet USDB, and the same rule refuses it.
    const mismatch = await t.request("POST", `${V}/agents/me/transfer-in`, { auth: a.bearer, body: { source: { accountId: c.bankId }, destination: { accountId: c.walletId }, amount: 300 } })
    expect([mismatch.status, mismatch.body.code]).toEqual([400, "INVALID_CURRENCY"])
  })

  it("the approval threshold holds a large AUTO transfer for approval and lets a small one run", async () => {
    const c = await customerWithAccounts(t)
    const a = await connectedAgent(t, c.customerId, policy({ approvalThresholds: { currency: "USD", amount: 100 } }))
    const send = (amount: number) => t.request("POST", `${V}/agents/me/transfer-out`, { auth: a.bearer, body: { source: { accountId: c.walletId }, destination: { accountId: c.externalId }, amount } })
    expect((await send(500_000)).body.status).toBe("APPROVED")
    expect((await send(2_000_000)).body.status).toBe("PENDING_APPROVAL")
  })

  it("the policy refuses with 403: a missing permission, a limit, a paused agent, an account it may not use", async () => {
    const c = await customerWithAccounts(t)
    const body = { source: { accountId: c.walletId }, destination: { accountId: c.externalId }, amount: 1_000_000 }
    const reasonOf = async (p: Record<string, unknown>, b: unknown = body) => {
      const a = await connectedAgent(t, c.customerId, p)
      const r = await t.request("POST", `${V}/agents/me/transfer-out`, { auth: a.bearer, body: b })
      expect(r.status, JSON.stringify(r.body)).toBe(403)
      return r.body.details.reason
    }
    expect(await reasonOf(policy({ permissions: ["VIEW_TRANSACTIONS"] }))).toBe("AGENT_PERMISSION_MISSING")
    expect(await reasonOf(policy({ spendingLimits: { currency: "USDB", perTransactionLimit: 999_999 } }))).toBe("PER_TRANSACTION_LIMIT_EXCEEDED")
    expect(await reasonOf(policy({ spendingLimits: { currency: "USDB", perTransactionLimit: 10_000_000, dailyTransactionLimit: 0 } }))).toBe("DAILY_TRANSACTION_LIMIT_EXCEEDED")
    expect(await reasonOf(policy({ accountRestrictions: { allowedAccountIds: ["InternalAccount:00000000-0000-4000-8000-000000000000"] } }))).toBe("AGENT_ACCOUNT_NOT_ALLOWED")
    const paused = await connectedAgent(t, c.customerId)
    expect((await t.request("PATCH", `${V}/agents/${paused.agentId}`, { body: { isPaused: true } })).body.isPaused).toBe(true)
    const r = await t.request("POST", `${V}/agents/me/transfer-out`, { auth: paused.bearer, body })
    expect([r.status, r.body.details.reason]).toEqual([403, "AGENT_PAUSED"])
    const tightened = await connectedAgent(t, c.customerId)
    const p = await t.request("PATCH", `${V}/agents/${tightened.agentId}/policy`, { body: { spendingLimits: { perTransactionLimit: 10 } } })
    expect(p.body.policy.spendingLimits).toMatchObject({ currency: "USDB", perTransactionLimit: 10, dailyLimit: 20_000_000 })
    expect((await t.request("POST", `${V}/agents/me/transfer-out`, { auth: tightened.bearer, body })).status).toBe(403)
  })

  it("an agent sees only its customer: another customer's accounts, transactions and actions are 404", async () => {
    const mine = await customerWithAccounts(t)
    const theirs = await customerWithAccounts(t)
    const a = await connectedAgent(t, mine.customerId)
    const b = await connectedAgent(t, theirs.customerId)
    const out = await t.request("POST", `${V}/agents/me/transfer-out`, { auth: a.bearer, body: { source: { accountId: theirs.walletId }, destination: { accountId: mine.externalId }, amount: 100 } })
    expect([out.status, out.body.details.resource]).toEqual([404, "InternalAccount"])
    const toTheirs = await t.request("POST", `${V}/agents/me/transfer-out`, { auth: a.bearer, body: { source: { accountId: mine.walletId }, destination: { accountId: theirs.externalId }, amount: 100 } })
    expect([toTheirs.status, toTheirs.body.details.resource]).toEqual([404, "ExternalAccount"])
    const theirAction = await t.request("POST", `${V}/agents/me/transfer-out`, { auth: b.bearer, body: { source: { accountId: theirs.walletId }, destination: { accountId: theirs.externalId }, amount: 100 } })
    expect((await t.request("GET", `${V}/agents/me/actions/${theirAction.body.id}`, { auth: a.bearer })).status).toBe(404)
    expect((await t.request("GET", `${V}/agents/me/transactions/${theirAction.body.transaction.id}`, { auth: a.bearer })).status).toBe(404)
    expect((await t.request("GET", `${V}/agents/me/external-accounts/${theirs.externalId}`, { auth: a.bearer })).status).toBe(404)
    const accounts = await t.request("GET", `${V}/agents/me/internal-accounts`, { auth: a.bearer })
    expect(accounts.body.data.map((x: { id: string }) => x.id)).toEqual([mine.walletId])
    const listed = await t.request("GET", `${V}/agents/me/transactions?customerId=${encodeURIComponent(theirs.customerId)}`, { auth: a.bearer })
    expect(listed.body.data.every((x: { customerId: string }) => x.customerId === mine.customerId)).toBe(true)
    expect((await t.request("POST", `${V}/agents/${a.agentId}/actions/${theirAction.body.id}/approve`)).status).toBe(404)
  })

  it("manages its customer's external accounts with MANAGE_EXTERNAL_ACCOUNTS, and not without", async () => {
    const c = await customerWithAccounts(t, 0)
    const a = await connectedAgent(t, c.customerId)
    const created = await t.request("POST", `${V}/agents/me/external-accounts`, {
      auth: a.bearer,
      body: { currency: "USD", accountInfo: { accountType: "USD_ACCOUNT", accountNumber: "777000111", routingNumber: "021000021", beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Jane Smith" } } }
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    expect(created.body.customerId).toBe(c.customerId)
    const listed = await t.request("GET", `${V}/agents/me/external-accounts`, { auth: a.bearer })
    expect(listed.body.data.map((x: { id: string }) => x.id).sort()).toEqual([c.externalId, c.bankId, created.body.id].sort())
    expect((await t.request("GET", `${V}/agents/me/external-accounts/${created.body.id}`, { auth: a.bearer })).status).toBe(200)
    expect((await t.request("DELETE", `${V}/agents/me/external-accounts/${created.body.id}`, { auth: a.bearer })).status).toBe(204)
    expect((await t.request("GET", `${V}/agents/me/external-accounts/${created.body.id}`, { auth: a.bearer })).status).toBe(404)
    const viewer = await connectedAgent(t, c.customerId, policy({ permissions: ["VIEW_TRANSACTIONS"] }))
    expect((await t.request("GET", `${V}/agents/me/external-accounts`, { auth: viewer.bearer })).status).toBe(403)
  })

  it("quotes: an agent reads only its own, and executing one is an action its policy decides", async () => {
    const c = await customerWithAccounts(t)
    // The pull pays into the wallet: that is the internal account the policy's account restrictions name.
    const a = await connectedAgent(t, c.customerId, policy({ defaultExecutionMode: "APPROVAL_REQUIRED", accountRestrictions: { allowedAccountIds: [c.walletId] } }))
    const q = await t.request("POST", `${V}/agents/me/quotes`, {
      auth: a.bearer,
      body: { source: { sourceType: "ACCOUNT", accountId: c.bankId }, destination: { destinationType: "ACCOUNT", accountId: c.walletId }, lockedCurrencySide: "SENDING", lockedCurrencyAmount: 500 }
    })
    expect(q.status, JSON.stringify(q.body)).toBe(201)
    expect((await t.request("GET", `${V}/agents/me/quotes/${q.body.id}`, { auth: a.bearer })).body.id).toBe(q.body.id)
    const other = await connectedAgent(t, c.customerId)
    expect((await t.request("GET", `${V}/agents/me/quotes/${q.body.id}`, { auth: other.bearer })).status).toBe(404)
    const executed = await t.request("POST", `${V}/agents/me/quotes/${q.body.id}/execute`, { auth: a.bearer })
    expect(executed.status, JSON.stringify(executed.body)).toBe(200)
    expect(executed.body).toMatchObject({ type: "EXECUTE_QUOTE", status: "PENDING_APPROVAL", quote: { id: q.body.id } })
    const approved = await t.request("POST", `${V}/agents/${a.agentId}/actions/${executed.body.id}/approve`)
    expect(approved.body.status, JSON.stringify(approved.body)).toBe("APPROVED")
    expect(approved.body.transaction.id).toBe(q.body.transactionId)
  })

  it("lists agents with the reference's filters, and refuses bad input with every invalid field", async () => {
    const c = await customerWithAccounts(t, 0)
    const a = await connectedAgent(t, c.customerId)
    await t.request("POST", `${V}/agents`, { body: { name: "Unconnected", customerId: c.customerId, policy: policy() } })
    const connected = await t.request("GET", `${V}/agents?customerId=${encodeURIComponent(c.customerId)}&isConnected=true`)
    expect(connected.body.data.map((x: { id: string }) => x.id)).toEqual([a.agentId])
    const all = await t.request("GET", `${V}/agents?customerId=${encodeURIComponent(c.customerId)}`)
    expect(all.body.data).toHaveLength(2)
    const bad = await t.request("POST", `${V}/agents`, { body: { name: "", customerId: "nope", policy: { permissions: ["FLY"], defaultExecutionMode: "SOMETIMES", spendingLimits: {}, approvalThresholds: { amount: 5 } } } })
    expect(bad.status).toBe(400)
    const fields = bad.body.details.errors.map((e: { field: string }) => e.field)
    for (const f of ["name", "customerId", "policy.defaultExecutionMode", "policy.spendingLimits.currency", "policy.spendingLimits.perTransactionLimit", "policy.approvalThresholds.currency"]) expect(fields).toContain(f)
    const unknown = await t.request("POST", `${V}/agents`, { body: { name: "x", customerId: "Customer:00000000-0000-4000-8000-000000000000", policy: policy() } })
    expect([unknown.status, unknown.body.details.errors[0].field]).toEqual([400, "customerId"])
    expect((await t.request("PATCH", `${V}/agents/${a.agentId}`, { body: {} })).status).toBe(400)
    const badList = await t.request("GET", `${V}/agents/me/actions?status=MAYBE&limit=0`, { auth: a.bearer })
    expect(badList.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(["limit", "status"])
    expect((await t.request("GET", `${V}/agents/me/internal-accounts?type=NOPE`, { auth: a.bearer })).status).toBe(400)
  })
})
