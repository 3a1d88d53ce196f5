import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestServer, type TestServer } from "../support/server.ts"
import { authorize, balances, cardholder, getTransaction, issue, simulate, V, webhooksAbout } from "./support.ts"

describe("smoke", () => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer("memory", { clock: "virtual" })
  })
  afterAll(async () => t.close())
  it("works", async () => {
    const h = await cardholder(t, 10_000)
    const card = await issue(t, h)
    console.log(card)
    const tx = await authorize(t, card.id, 1000)
    console.log(await getTransaction(t, tx), await balances(t, h.customerId))
    const c = await simulate(t, card.id, "clearing", { cardTransactionId: tx, amount: 1200 })
    console.log(c.body, await getTransaction(t, tx), await balances(t, h.customerId))
    console.log((await webhooksAbout(t, tx)).map((e) => e.type), (await webhooksAbout(t, card.id)).map((e) => e.type))
    console.log((await t.request("GET", `${V}/transactions?type=CARD`)).body)
    expect(1).toBe(1)
  })
})
