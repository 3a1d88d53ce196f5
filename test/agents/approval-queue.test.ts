import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { connectedAgent, customerWithAccounts, policy, V, walletBalance } from "./support.ts"

/**
 * The approval queue lists only what can still be decided: a deleted agent's pending actions
 * fail with it (DECISIONS #391) and an action past its approval window leaves the queue
 * (DECISIONS #392).
 */
describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("the agent approval queue (%s store)", (kind) => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer(kind, { clock: "virtual" })
  })
  afterAll(async () => t.close())

  const queued = async (agentId: string) => (await t.request("GET", `${V}/agents/approvals?agentId=${encodeURIComponent(agentId)}`)).body.data.map((x: { id: string }) => x.id)
  const exported = async (id: string) => (await t.request("GET", `${V}/sandbox/state`)).body.collections["agentActions"].find((a: { id: string }) => a.id === id)

  it("deleting an agent fails its pending actions in the same change: they leave the queue and nothing moves", async () => {
    const c = await customerWithAccounts(t)
    const a = await connectedAgent(t, c.customerId, policy({ defaultExecutionMode: "APPROVAL_REQUIRED" }))
    const before = await walletBalance(t, c.customerId)
    const r = await t.request("POST", `${V}/agents/me/transfer-out`, { auth: a.bearer, body: { source: { accountId: c.walletId }, destination: { accountId: c.externalId }, amount: 1_000 } })
    expect(r.body.status).toBe("PENDING_APPROVAL")
    expect(await queued(a.agentId)).toEqual([r.body.id])
    expect((await t.request("DELETE", `${V}/agents/${a.agentId}`)).status).toBe(204)
    expect(await queued(a.agentId)).toEqual([])
    expect((await t.request("GET", `${V}/agents/approvals`)).body.data.map((x: { id: string }) => x.id)).not.toContain(r.body.id)
    expect(await exported(r.body.id)).toMatchObject({ status: "FAILED", failureReason: "AGENT_DELETED" })
    expect(await walletBalance(t, c.customerId)).toBe(before)
  })

  it("an action past its approval window is no longer listed as pending; one still open is", async () => {
    const c = await customerWithAccounts(t)
    const a = await connectedAgent(t, c.customerId, policy({ defaultExecutionMode: "APPROVAL_REQUIRED" }))
    const body = { source: { accountId: c.walletId }, destination: { accountId: c.externalId }, amount: 1_000 }
    const old = (await t.request("POST", `${V}/agents/me/transfer-out`, { auth: a.bearer, body })).body
    expect((await t.request("POST", `${V}/sandbox/clock/advance`, { body: { seconds: 4 * 24 * 3600 } })).status).toBe(200)
    const fresh = (await t.request("POST", `${V}/agents/me/transfer-out`, { auth: a.bearer, body })).body
    expect(await queued(a.agentId)).toEqual([fresh.id, old.id])
    expect((await t.request("POST", `${V}/sandbox/clock/advance`, { body: { seconds: 4 * 24 * 3600 } })).status).toBe(200)
    const q = await t.request("GET", `${V}/agents/approvals?agentId=${encodeURIComponent(a.agentId)}`)
    expect(q.body).toMatchObject({ totalCount: 1 })
    expect(q.body.data.map((x: { id: string }) => x.id)).toEqual([fresh.id])
  })
})
