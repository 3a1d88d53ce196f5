import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { wallet } from "../external-accounts/support.ts"
import { CODE, euCustomer, scaLogin, usCustomer, V } from "./support.ts"

/**
 * The deprecated `/transfer-out` carries no SCA challenge, so an SCA customer may use it only to
 * pay a beneficiary it trusted (DECISIONS #234); the quote flow is the way to pay anyone else.
 */
describe.each<StoreKind>(["memory", "sqlite"])("transfer-out of an SCA customer (%s store)", (kind) => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer(kind, { clock: "virtual" })
  })
  afterAll(() => t.close())

  let serial = 0
  const setup = async (customerId: string) => {
    const account = (await t.request("GET", `${V}/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}`)).body.data[0].id as string
    expect((await t.request("POST", `${V}/sandbox/internal-accounts/${account}/fund`, { body: { amount: 1_000_000 } })).status).toBe(200)
    const address = "0x" + (++serial).toString(16).padStart(40, "a")
    const ext = await t.request("POST", `${V}/customers/external-accounts`, {
      body: { ...wallet("BASE_WALLET", address, { currency: "USDB", customerId }), accountInfo: { accountType: "BASE_WALLET", address, vaspName: "Kraken" } }
    })
    expect(ext.status, JSON.stringify(ext.body)).toBe(201)
    return { account, external: ext.body.id as string }
  }
  const out = (source: string, destination: string) =>
    t.request("POST", `${V}/transfer-out`, { body: { source: { accountId: source }, destination: { accountId: destination }, amount: 5_000 } })
  const available = async (customerId: string) =>
    (await t.request("GET", `${V}/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}`)).body.data[0].balance.amount as number

  it("to an untrusted beneficiary: 400 SCA_AUTHORIZATION_REQUIRED and nothing moves; once trusted, 201", async () => {
    const c = await euCustomer(t)
    const { account, external } = await setup(c)
    const refused = await out(account, external)
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({ code: "INVALID_INPUT", details: { reason: "SCA_AUTHORIZATION_REQUIRED" } })
    expect(refused.body.details.errors[0].field).toBe("destination.accountId")
    expect(await available(c)).toBe(1_000_000)

    await scaLogin(t, c)
    expect((await t.request("POST", `${V}/customers/external-accounts/${external}/trust`)).status).toBe(200)
    expect((await t.request("POST", `${V}/customers/external-accounts/${external}/trust/confirm`, { body: { code: CODE } })).body).toEqual({ trusted: true })
    const paid = await out(account, external)
    expect(paid.status, JSON.stringify(paid.body)).toBe(201)
    expect(await available(c)).toBe(995_000)
  })

  it("a customer outside SCA regions pays any beneficiary", async () => {
    const c = await usCustomer(t)
    const { account, external } = await setup(c)
    expect((await out(account, external)).status).toBe(201)
  })
})
