import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { fund, paymentWebhooks, platformExternal, platformUsdAccount, V } from "../transactions/http-support.ts"
import { databaseKinds } from "./databases.ts"
import { type Cluster, startCluster } from "./instances.ts"
import { countingReceiver } from "./receiver.ts"

const TRANSFERS = 40

/**
 * Webhooks on the real clock with three instances on one database: every instance's worker
 * finds the same events due at the same time; each event must reach the receiver once, and a
 * transfer's events in the order they happened, whichever instance sent each.
 */
describe.each(databaseKinds)("webhook deliveries with three instances on the real clock ($name)", (kind) => {
  let cluster: Cluster
  let receiver: Awaited<ReturnType<typeof countingReceiver>>
  beforeAll(async () => {
    receiver = await countingReceiver()
    cluster = await startCluster(await kind.fresh(), 3, { webhookUrl: receiver.url })
  }, 60_000)
  afterAll(async () => {
    await cluster?.stop()
    await receiver?.close()
  })

  it(`${TRANSFERS} completed transfers, three events each: every event delivered once, each transfer's in order`, async () => {
    const first = cluster.instances[0]!
    const internal = await platformUsdAccount(first)
    await fund(first, internal, TRANSFERS * 100)
    const external = await platformExternal(first, "123")
    const started = await Promise.all(
      Array.from({ length: TRANSFERS }, (_, i) =>
        cluster.pick(i).request("POST", `${V}/transfer-out`, { body: { source: { accountId: internal }, destination: { accountId: external.id }, amount: 100 } })
      )
    )
    expect(started.map((r) => r.status)).toEqual(Array.from({ length: TRANSFERS }, () => 201))
    const perTransfer = await Promise.all(started.map((r, i) => paymentWebhooks(cluster.pick(i + 2), r.body.id as string)))
    for (const hooks of perTransfer) expect(hooks.map((h) => h.type)).toEqual(["OUTGOING_PAYMENT.PENDING", "OUTGOING_PAYMENT.PROCESSING", "OUTGOING_PAYMENT.COMPLETED"])
    const ids = perTransfer.flatMap((hooks) => hooks.map((h) => h.id))

    const counts = await receiver.settled(ids)
    expect(ids.filter((id) => counts.get(id) !== 1)).toEqual([])
    // The other events of the run (balance updates and the like) were not sent twice either.
    expect([...counts].filter(([, n]) => n !== 1)).toEqual([])
    const order = receiver.received.map((r) => r.event.id)
    for (const hooks of perTransfer) expect(hooks.map((h) => order.indexOf(h.id))).toEqual(hooks.map((h) => order.indexOf(h.id)).sort((a, b) => a - b))
    // Every instance records the deliveries the others made.
    for (const i of cluster.instances) {
      const events = await i.request("GET", `${V}/sandbox/events?type=OUTGOING_PAYMENT.COMPLETED&limit=100`)
      expect(events.body.data.filter((e: { delivery: { deliveredAt?: string } }) => e.delivery.deliveredAt !== undefined)).toHaveLength(TRANSFERS)
    }
  }, 60_000)
})
