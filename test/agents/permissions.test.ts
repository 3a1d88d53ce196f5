import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { basic, startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { connectedAgent, customerWithAccounts, policy, V, walletBalance } from "./support.ts"

/**
 * An agent in AUTO mode moves money, so creating one, giving it a new device code or changing its
 * policy needs TRANSACT (DECISIONS #388): a MANAGE-only token must not reach money through an
 * agent it could otherwise set up, the escalation #246 forbids for tokens.
 */
describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("agent permissions for API tokens (%s store)", (kind) => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer(kind, { clock: "virtual" })
  })
  afterAll(async () => t.close())

  const token = async (name: string, permissions: ReadonlyArray<string>) => {
    const r = await t.request("POST", `${V}/tokens`, { body: { name, permissions } })
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    return basic(r.body.clientId, r.body.clientSecret)
  }

  it("a MANAGE-only token can neither create an agent, nor regenerate its code, nor change its policy; money stays put", async () => {
    const c = await customerWithAccounts(t)
    const manager = await token("ops", ["MANAGE", "VIEW"])
    const before = await walletBalance(t, c.customerId)
    const created = await t.request("POST", `${V}/agents`, { auth: manager, body: { name: "x", customerId: c.customerId, policy: policy() } })
    expect([created.status, created.body.details?.requiredPermission]).toEqual([403, "TRANSACT"])
    expect((await t.request("GET", `${V}/agents?customerId=${encodeURIComponent(c.customerId)}`)).body.data).toEqual([])
    const unconnected = await t.request("POST", `${V}/agents`, { body: { name: "y", customerId: c.customerId, policy: policy({ permissions: ["VIEW_TRANSACTIONS"] }) } })
    expect(unconnected.status).toBe(201)
    const id = unconnected.body.agent.id as string
    const regenerated = await t.request("POST", `${V}/agents/${id}/device-codes`, { auth: manager })
    expect([regenerated.status, regenerated.body.details?.requiredPermission]).toEqual([403, "TRANSACT"])
    const widened = await t.request("PATCH", `${V}/agents/${id}/policy`, { auth: manager, body: { permissions: ["CREATE_TRANSFERS"] } })
    expect([widened.status, widened.body.details?.requiredPermission]).toEqual([403, "TRANSACT"])
    expect((await t.request("GET", `${V}/agents/${id}`)).body.policy.permissions).toEqual(["VIEW_TRANSACTIONS"])
    // Renaming and pausing stay MANAGE writes.
    expect((await t.request("PATCH", `${V}/agents/${id}`, { auth: manager, body: { name: "renamed" } })).status).toBe(200)
    expect(await walletBalance(t, c.customerId)).toBe(before)
  })

  it("a TRANSACT token creates an agent that moves money, and may change its policy", async () => {
    const c = await customerWithAccounts(t)
    const payer = await token("payer", ["TRANSACT"])
    const created = await t.request("POST", `${V}/agents`, { auth: payer, body: { name: "x", customerId: c.customerId, policy: policy() } })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const id = created.body.agent.id as string
    expect((await t.request("PATCH", `${V}/agents/${id}/policy`, { auth: payer, body: { defaultExecutionMode: "APPROVAL_REQUIRED" } })).status).toBe(200)
    expect((await t.request("POST", `${V}/agents/${id}/device-codes`, { auth: payer })).status).toBe(201)
    const { bearer } = await connectedAgent(t, c.customerId)
    const r = await t.request("POST", `${V}/agents/me/transfer-out`, { auth: bearer, body: { source: { accountId: c.walletId }, destination: { accountId: c.externalId }, amount: 1_000 } })
    expect(r.status).toBe(201)
  })
})
