import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { balances, cardholder, issue, simulate, V } from "./support.ts"

const simulators = ["authorization", "clearing", "return", "balance_inquiry", "credit_authorization", "financial_authorization", "financial_credit_authorization", "authorization_advice", "credit_authorization_advice", "return_reversal"]

/**
 * Every card simulator refuses a body it cannot use with 400 `INVALID_INPUT` listing every invalid
 * field, and moves no money and records no card transaction for it.
 */
describe.each<StoreKind>(["memory", "sqlite"])("card simulators refuse bad bodies (%s store)", (kind) => {
  let t: TestServer
  let holder: { customerId: string; accountId: string }
  let cardId: string
  beforeAll(async () => {
    t = await startTestServer(kind)
    holder = await cardholder(t, 10_000)
    cardId = (await issue(t, holder)).id
  })
  afterAll(async () => t.close())

  it.each(simulators)("%s: a body of wrong types → 400 listing each invalid field; nothing moves", async (kind) => {
    const before = await balances(t, holder.customerId)
    const listed = async () => (await t.request("GET", `${V}/transactions?customerId=${encodeURIComponent(holder.customerId)}`)).body.data.length
    const count = await listed()
    const r = await simulate(t, cardId, kind, { amount: "lots", merchant: 7, cardTransactionId: 12, currency: "dollars" })
    expect(r.status).toBe(400)
    expect(r.body.code).toBe("INVALID_INPUT")
    const fields: string[] = r.body.details.errors.map((e: { field: string }) => e.field)
    expect(fields.length).toBeGreaterThan(0)
    expect(new Set(fields).size).toBe(fields.length)
    expect(await balances(t, holder.customerId)).toEqual(before)
    expect(await listed()).toBe(count)
  })

  it("a reveal or wallet export key of the right form but off the P-256 curve is a 400 on clientPublicKey, never a 500", async () => {
    for (const clientPublicKey of ["04" + "00".repeat(64), "04" + "ff".repeat(64)]) {
      const reveal = await t.request("POST", `${V}/cards/${cardId}/reveal`, { body: { clientPublicKey } })
      expect(reveal.status).toBe(400)
      expect(reveal.body.details.errors[0].field).toBe("clientPublicKey")
      const exported = await t.request("POST", `${V}/internal-accounts/${holder.accountId}/export`, { body: { clientPublicKey } })
      expect(exported.status).toBe(400)
      expect(exported.body.details.errors[0].field).toBe("clientPublicKey")
    }
  })

  it.each(simulators)("%s: a body that is not a JSON object → 400", async (kind) => {
    const r = await t.request("POST", `${V}/sandbox/cards/${cardId}/simulate/${kind}`, { raw: "[1,2", headers: { "content-type": "application/json" } })
    expect(r.status).toBe(400)
  })
})
