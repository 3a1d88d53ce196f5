import { afterEach, describe, expect, it } from "vitest"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { content, exportState } from "../sandbox/support.ts"
import { connectedAgent, customerWithAccounts, policy, V, walletBalance } from "./support.ts"

/**
 * Agents in the sandbox state (DECISIONS #387): exported and imported with their actions and
 * quotes; credentials stay on the server that issued them, and a reset forgets the agents.
 */
describe.each<StoreKind>(["memory", "sqlite"])("agents in the sandbox state (%s store)", (kind) => {
  const open: Array<TestServer> = []
  const start = async () => {
    const t = await startTestServer(kind, { clock: "virtual" })
    open.push(t)
    return t
  }
  afterEach(async () => {
    for (const t of open.splice(0)) await t.close()
  })

  it("export → import carries agents, their actions and quotes; a pending action is approved on the new server; the agent reconnects there", async () => {
    const a = await start()
    const c = await customerWithAccounts(a)
    const agent = await connectedAgent(a, c.customerId, policy({ defaultExecutionMode: "APPROVAL_REQUIRED" }))
    const pending = await a.request("POST", `${V}/agents/me/transfer-out`, { auth: agent.bearer, body: { source: { accountId: c.walletId }, destination: { accountId: c.externalId }, amount: 700_000 } })
    expect(pending.body.status).toBe("PENDING_APPROVAL")
    const doc = await exportState(a)
    expect(doc.collections["agents"]).toHaveLength(1)
    expect(doc.collections["agentActions"]).toHaveLength(1)

    const b = await start()
    expect((await b.request("PUT", `${V}/sandbox/state`, { body: doc })).status).toBe(200)
    expect(content(await exportState(b))).toEqual(content(doc))
    expect((await b.request("GET", `${V}/agents/${agent.agentId}`)).body).toEqual((await a.request("GET", `${V}/agents/${agent.agentId}`)).body)
    // The credential is a's: b never issued it.
    expect((await b.request("GET", `${V}/agents/me`, { auth: agent.bearer })).status).toBe(401)
    const before = await walletBalance(b, c.customerId)
    const approved = await b.request("POST", `${V}/agents/${agent.agentId}/actions/${pending.body.id}/approve`)
    expect(approved.body.status).toBe("APPROVED")
    expect(await walletBalance(b, c.customerId)).toBe(before - 700_000)
    const code = await b.request("POST", `${V}/agents/${agent.agentId}/device-codes`)
    expect(code.status).toBe(201)
    const redeemed = await b.request("POST", `${V}/agents/device-codes/${code.body.code}/redeem`, { auth: null })
    expect((await b.request("GET", `${V}/agents/me/actions/${pending.body.id}`, { auth: `Bearer ${redeemed.body.accessToken}` })).body.status).toBe("APPROVED")
  })

  it("a reset forgets the platform's agents, and their credentials authenticate nobody", async () => {
    const t = await start()
    const c = await customerWithAccounts(t, 0)
    const agent = await connectedAgent(t, c.customerId)
    expect((await t.request("POST", `${V}/sandbox/reset`)).status).toBe(200)
    expect((await t.request("GET", `${V}/agents`)).body.data).toEqual([])
    expect((await t.request("GET", `${V}/agents/me`, { auth: agent.bearer })).status).toBe(401)
  })
})
