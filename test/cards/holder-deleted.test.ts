import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { balances, cardholder, issue, merchant, patchCard, simulate, V } from "./support.ts"

/** Deleting a customer closes its cards in the same transaction: they cannot spend afterwards. */
describe.each<StoreKind>(["memory", "sqlite"])("a deleted cardholder's cards (%s store)", (kind) => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer(kind)
  })
  afterAll(async () => t.close())

  it("ACTIVE and FROZEN cards become CLOSED (CLOSED_BY_PLATFORM, CARD.STATE_CHANGE); authorizations decline; PROCESSING stays", async () => {
    const holder = await cardholder(t, 5_000)
    const active = await issue(t, holder)
    const frozen = await issue(t, holder)
    expect((await patchCard(t, frozen.id, { state: "FROZEN" })).status).toBe(200)
    const processing = await issue(t, holder, { platformCardId: `pending-${Date.now()}-001` })
    expect(processing.state).toBe("PROCESSING")

    expect((await t.request("DELETE", `${V}/customers/${holder.customerId}`)).status).toBe(200)

    for (const id of [active.id, frozen.id]) {
      const card = (await t.request("GET", `${V}/cards/${id}`)).body
      expect(card).toMatchObject({ state: "CLOSED", stateReason: "CLOSED_BY_PLATFORM", fundingSources: [] })
    }
    expect((await t.request("GET", `${V}/cards/${processing.id}`)).body.state).toBe("PROCESSING")
    const events = (await t.request("GET", `${V}/sandbox/events?type=CARD.STATE_CHANGE`)).body.data as Array<{ data: { id: string; state: string } }>
    expect(events.filter((e) => e.data.id === active.id && e.data.state === "CLOSED")).toHaveLength(1)

    const r = await simulate(t, active.id, "authorization", { amount: 100, currency: { code: "USDB" }, merchant: merchant() })
    expect(r.status).toBe(202)
    expect(r.body.declineReason).toBe("CARD_CLOSED")
    expect(await balances(t, holder.customerId)).toEqual({ available: 5_000, total: 5_000 })
  })
})
