import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { connectedAgent, customerWithAccounts, policy, V, walletBalance } from "./support.ts"

/**
 * Approving an action asks again whether the agent may still act (DECISIONS #394): paused, or
 * without the permission or the account since it asked, the action FAILS with the reason and
 * nothing moves.
 */
describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("approving an agent's action re-checks the agent (%s store)", (kind) => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer(kind, { clock: "virtual" })
  })
  afterAll(async () => t.close())

  it("paused, stripped of CREATE_TRANSFERS, or no longer allowed the account: the approved action fails and no money moves", async () => {
    const c = await customerWithAccounts(t)
    const a = await connectedAgent(t, c.customerId, policy({ defaultExecutionMode: "APPROVAL_REQUIRED" }))
    const body = { source: { accountId: c.walletId }, destination: { accountId: c.externalId }, amount: 1_000 }
    const submit = async () => {
      const r = await t.request("POST", `${V}/agents/me/transfer-out`, { auth: a.bearer, body })
      expect(r.body.status).toBe("PENDING_APPROVAL")
      return r.body.id as string
    }
    const approve = async (id: string) => {
      const r = await t.request("POST", `${V}/agents/${a.agentId}/actions/${id}/approve`)
      expect(r.status).toBe(200)
      // The reference's AgentAction has no failure reason: the record keeps it (the state export shows it).
      const kept = (await t.request("GET", `${V}/sandbox/state`)).body.collections["agentActions"].find((x: { id: string }) => x.id === id)
      return [r.body.status, kept.failureReason, r.body.transaction]
    }
    const before = await walletBalance(t, c.customerId)
    const [paused, unpermitted, elsewhere] = [await submit(), await submit(), await submit()]

    expect((await t.request("PATCH", `${V}/agents/${a.agentId}`, { body: { isPaused: true } })).status).toBe(200)
    expect(await approve(paused)).toEqual(["FAILED", "AGENT_PAUSED", undefined])
    expect((await t.request("PATCH", `${V}/agents/${a.agentId}`, { body: { isPaused: false } })).status).toBe(200)

    expect((await t.request("PATCH", `${V}/agents/${a.agentId}/policy`, { body: { permissions: ["VIEW_TRANSACTIONS"] } })).status).toBe(200)
    expect(await approve(unpermitted)).toEqual(["FAILED", "AGENT_PERMISSION_MISSING", undefined])

    expect((await t.request("PATCH", `${V}/agents/${a.agentId}/policy`, { body: { permissions: ["CREATE_TRANSFERS"], accountRestrictions: { allowedAccountIds: ["InternalAccount:00000000-0000-4000-8000-000000000000"] } } })).status).toBe(200)
    expect(await approve(elsewhere)).toEqual(["FAILED", "AGENT_ACCOUNT_NOT_ALLOWED", undefined])
    expect(await walletBalance(t, c.customerId)).toBe(before)

    // Allowed again, a new action approved runs.
    expect((await t.request("PATCH", `${V}/agents/${a.agentId}/policy`, { body: { accountRestrictions: { allowedAccountIds: [c.walletId] } } })).status).toBe(200)
    const ok = await submit()
    expect((await approve(ok))[0]).toBe("APPROVED")
    expect(await walletBalance(t, c.customerId)).toBe(before - 1_000)
  })
})
