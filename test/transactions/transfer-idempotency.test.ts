import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { balances, fund, platformExternal, platformUsdAccount, V } from "./http-support.ts"

/** Transfers take `Idempotency-Key` as quotes do (DECISIONS #188, #191): a retried request moves money once. */
describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("transfer Idempotency-Key over HTTP (%s store)", (kind) => {
  let t: TestServer
  let internal: string
  beforeAll(async () => {
    t = await startTestServer(kind, { clock: "virtual" })
    internal = await platformUsdAccount(t)
    await fund(t, internal, 100_000)
  })
  afterAll(async () => t.close())

  it("the same key and body answers the first 201 again and pays once; the key on another body is a 400 that pays nothing", async () => {
    const external = await platformExternal(t, "123")
    const body = { source: { accountId: internal }, destination: { accountId: external.id }, amount: 2_500 }
    const before = await balances(t)
    const headers = { "idempotency-key": `transfer-out-${kind}-1` }
    const first = await t.request("POST", `${V}/transfer-out`, { body, headers })
    expect(first.status).toBe(201)
    const again = await t.request("POST", `${V}/transfer-out`, { body, headers })
    expect(again.status).toBe(201)
    expect(again.body).toEqual(first.body)
    expect((await balances(t)).available).toBe(before.available - 2_500)
    const listed = await t.request("GET", `${V}/transactions?limit=100`)
    expect(listed.body.data.filter((x: { id: string }) => x.id === first.body.id)).toHaveLength(1)
    expect(listed.body.data).toHaveLength(1)
    const other = await t.request("POST", `${V}/transfer-out`, { body: { ...body, amount: 3_000 }, headers })
    expect(other.status).toBe(400)
    expect(other.body).toMatchObject({ code: "INVALID_INPUT", details: { reason: "IDEMPOTENCY_KEY_REUSED" } })
    expect((await balances(t)).available).toBe(before.available - 2_500)
  })

  it("transfer-in keys are separate requests from transfer-out ones, and no key means a new transfer each time", async () => {
    const external = await platformExternal(t, "124")
    const body = { source: { accountId: external.id }, destination: { accountId: internal }, amount: 700 }
    const a = await t.request("POST", `${V}/transfer-in`, { body, headers: { "idempotency-key": `transfer-in-${kind}` } })
    const b = await t.request("POST", `${V}/transfer-in`, { body, headers: { "idempotency-key": `transfer-in-${kind}` } })
    expect([a.status, b.status]).toEqual([201, 201])
    expect(b.body.id).toBe(a.body.id)
    const c = await t.request("POST", `${V}/transfer-in`, { body })
    const d = await t.request("POST", `${V}/transfer-in`, { body })
    expect(c.body.id).not.toBe(d.body.id)
  })
})
