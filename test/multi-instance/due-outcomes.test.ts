import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { balances, fund, paymentWebhooks, platformExternal, platformUsdAccount, V } from "../transactions/http-support.ts"
import { databaseKinds } from "./databases.ts"
import { type Cluster, startCluster } from "./instances.ts"
import { countingReceiver } from "./receiver.ts"

const TRANSFERS = 60
const AMOUNT = 1_000

/**
 * Due outcomes and webhook deliveries with three instances on one database and one virtual time:
 * transfers to an account ending 005 each leave a failure due 30 s later; one instance is
 * advanced 30 s, and applies the due steps in that request while the other two, reading the
 * stored time, apply them from their due runners: all three race for the same steps, and all
 * three deliver webhooks.
 */
describe.each(databaseKinds)("due outcomes and webhooks with three instances ($name)", (kind) => {
  let cluster: Cluster
  let receiver: Awaited<ReturnType<typeof countingReceiver>>
  beforeAll(async () => {
    receiver = await countingReceiver()
    cluster = await startCluster(await kind.fresh(), 3, { clock: "virtual", webhookUrl: receiver.url })
  }, 60_000)
  afterAll(async () => {
    await cluster?.stop()
    await receiver?.close()
  })

  it(`${TRANSFERS} transfers failing after 30 s: each fails once, its hold released once, each webhook delivered once by one instance`, async () => {
    const first = cluster.instances[0]!
    const internal = await platformUsdAccount(first)
    await fund(first, internal, TRANSFERS * AMOUNT)
    const external = await platformExternal(first, "005")
    const started = await Promise.all(
      Array.from({ length: TRANSFERS }, (_, i) =>
        cluster.pick(i).request("POST", `${V}/transfer-out`, { body: { source: { accountId: internal }, destination: { accountId: external.id }, amount: AMOUNT } })
      )
    )
    expect(started.map((r) => r.status)).toEqual(Array.from({ length: TRANSFERS }, () => 201))
    expect(await balances(first)).toEqual({ available: 0, total: TRANSFERS * AMOUNT })

    // One advance moves the time every instance reads (#302); the due steps are then raced for.
    const clock = (await first.request("POST", `${V}/sandbox/clock/advance`, { body: { seconds: 30 } })).body
    for (const i of cluster.instances) expect((await i.request("GET", `${V}/sandbox/clock`)).body.now).toBe(clock.now)

    const ids = started.map((r) => r.body.id as string)
    const eventIds: Array<string> = []
    for (const [n, id] of ids.entries()) {
      const inst = cluster.pick(n + 1)
      const tx = await inst.request("GET", `${V}/transactions/${id}`)
      expect(tx.body).toMatchObject({ status: "FAILED", failureReason: "PAYOUT_RETURNED" })
      // One FAILED event per transaction: the step was applied once.
      const hooks = await paymentWebhooks(inst, id)
      expect(hooks.map((h) => h.type)).toEqual(["OUTGOING_PAYMENT.PENDING", "OUTGOING_PAYMENT.FAILED"])
      eventIds.push(...hooks.map((h) => h.id))
    }
    // Each hold released once: the account has exactly what it was funded with.
    for (const i of cluster.instances) expect(await balances(i)).toEqual({ available: TRANSFERS * AMOUNT, total: TRANSFERS * AMOUNT })

    const counts = await receiver.settled(eventIds)
    const duplicates = [...counts].filter(([, n]) => n > 1)
    expect(duplicates).toEqual([])
    expect(eventIds.filter((id) => counts.get(id) !== 1)).toEqual([])
    // In order per transaction: each PENDING arrived before its FAILED.
    const order = receiver.received.map((r) => r.event.id)
    for (let k = 0; k < eventIds.length; k += 2) expect(order.indexOf(eventIds[k]!)).toBeLessThan(order.indexOf(eventIds[k + 1]!))
  }, 60_000)

  it("advances answered by different instances add up, and every instance reads the sum at once", async () => {
    const before = (await cluster.instances[0]!.request("GET", `${V}/sandbox/clock`)).body.now as string
    const [a, b, c] = cluster.instances
    await Promise.all([a!.request("POST", `${V}/sandbox/clock/advance`, { body: { seconds: 10 } }), b!.request("POST", `${V}/sandbox/clock/advance`, { body: { seconds: 20 } })])
    for (const i of [a!, b!, c!]) expect(Date.parse((await i.request("GET", `${V}/sandbox/clock`)).body.now) - Date.parse(before)).toBe(30_000)
  })
})
