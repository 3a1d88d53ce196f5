import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { individual } from "../support/server.ts"
import { V } from "../support/wallet.ts"
import { databaseKinds } from "./databases.ts"
import { type Cluster, startCluster } from "./instances.ts"

const ATTEMPTS = 60

/** Uniqueness holds across processes: the same unique key sent to three instances at once is taken once. */
describe.each(databaseKinds)("concurrent creation of one unique resource over three instances ($name)", (kind) => {
  let cluster: Cluster
  beforeAll(async () => {
    cluster = await startCluster(await kind.fresh(), 3)
  }, 60_000)
  afterAll(async () => cluster?.stop())

  it(`${ATTEMPTS} customers with one platformCustomerId at once: one 201, every other 409, one customer listed`, async () => {
    const body = individual({ platformCustomerId: "same-everywhere", email: "same@example.com" })
    const replies = await Promise.all(Array.from({ length: ATTEMPTS }, (_, i) => cluster.pick(i).request("POST", `${V}/customers`, { body })))
    const created = replies.filter((r) => r.status === 201)
    expect(created).toHaveLength(1)
    const refused = replies.filter((r) => r.status === 409)
    expect(refused).toHaveLength(ATTEMPTS - 1)
    for (const r of refused) expect(r.body.details).toEqual({ platformCustomerId: "same-everywhere" })
    for (const i of cluster.instances) {
      const listed = await i.request("GET", `${V}/customers?platformCustomerId=same-everywhere`)
      expect(listed.body.data.map((c: { id: string }) => c.id)).toEqual([created[0]!.body.id])
    }
    // The winner's wallet was created with it, once: the losers' writes left nothing behind.
    const accounts = await cluster.pick(1).request("GET", `${V}/customers/internal-accounts?customerId=${encodeURIComponent(created[0]!.body.id)}`)
    expect(accounts.body.data).toHaveLength(1)
  })

  it("distinct keys sent at the same moment are all created (the contention refuses only true duplicates)", async () => {
    const replies = await Promise.all(
      Array.from({ length: 30 }, (_, i) => cluster.pick(i).request("POST", `${V}/customers`, { body: individual({ platformCustomerId: `distinct-${i}`, email: `d${i}@example.com` }) }))
    )
    expect(replies.map((r) => r.status)).toEqual(Array.from({ length: 30 }, () => 201))
    expect(new Set(replies.map((r) => r.body.id)).size).toBe(30)
  })
})
