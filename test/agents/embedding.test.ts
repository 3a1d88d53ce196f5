import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Engine, type PlatformRecord } from "@tessera/core"
import { everyStore } from "../support/stores.ts"
import { individual } from "../support/server.ts"
import { wallet } from "../external-accounts/support.ts"
import { policy } from "./support.ts"

type Action = { id: string; status: string; transaction?: { id: string } }

/**
 * Agents through the embedding API (DECISIONS #386): the platform manages them with
 * `engine.as(platform).agents`, and an agent acts with `engine.asAgent(accessToken)`, which
 * authenticates the token on every call as the HTTP adapter does.
 */
describe.each(everyStore("agents-embed"))("agents through the embedding API (%s store)", (_kind, layer) => {
  let engine: Engine
  let platform: PlatformRecord
  beforeAll(async () => {
    engine = await Engine.make({ store: layer(), clock: "virtual" })
    platform = await engine.platform({ clientId: "agents-embed", clientSecret: "s" })
  })
  afterAll(() => engine.dispose())

  it("create, redeem, act as the agent, approve as the platform; a deleted agent's token is refused", async () => {
    const api = engine.as(platform)
    const customer = (await api.customers.create(individual({ email: "embed-agent@example.com", platformCustomerId: "embed-agent-owner" }))) as { id: string }
    const walletId = (await api.internalAccounts.list({ customerId: customer.id })).data[0]!.id
    await api.sandbox.fundInternalAccount(walletId, { amount: 5_000_000 })
    const ext = (await api.externalAccounts.create({ ...wallet("BASE_WALLET", "0x" + "ee".repeat(20)), currency: "USDB", customerId: customer.id } as never)).body as { id: string }
    const created = (await api.agents.create({ name: "Embedded", customerId: customer.id, policy: policy({ defaultExecutionMode: "APPROVAL_REQUIRED" }) as never })) as { status: number; body: { agent: { id: string }; deviceCode: { code: string } } }
    expect(created.status).toBe(201)
    const redeemed = await api.agents.redeemDeviceCode(created.body.deviceCode.code)
    const agent = engine.asAgent(redeemed.accessToken)
    expect(await agent.get()).toMatchObject({ id: created.body.agent.id, isConnected: true })
    const submitted = (await agent.transferOut({ source: { accountId: walletId }, destination: { accountId: ext.id }, amount: 1_000_000 })) as { status: number; body: Action }
    expect([submitted.status, submitted.body.status]).toEqual([201, "PENDING_APPROVAL"])
    const approved = (await api.agents.approveAction(created.body.agent.id, submitted.body.id)) as Action
    expect(approved.status).toBe("APPROVED")
    expect(((await agent.getAction(submitted.body.id)) as Action).transaction?.id).toBe(approved.transaction?.id)
    await expect(api.agents.rejectAction(created.body.agent.id, submitted.body.id)).rejects.toMatchObject({ _tag: "CONFLICT", status: 409 })
    await api.agents.delete(created.body.agent.id)
    await expect(agent.get()).rejects.toMatchObject({ _tag: "UNAUTHORIZED", status: 401 })
    await expect(engine.asAgent("gat_nothing").get()).rejects.toMatchObject({ _tag: "UNAUTHORIZED" })
  })
})
