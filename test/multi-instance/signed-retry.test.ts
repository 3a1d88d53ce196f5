import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { mintOidcToken, stamp } from "@tessera/core/testing"
import { loginWithOtp, newWallet, V } from "../support/wallet.ts"
import { databaseKinds } from "./databases.ts"
import { type Cluster, startCluster } from "./instances.ts"

const RETRIES = 100

/**
 * A signed retry's Request-Id is consumed once, whichever instance each copy reaches: 100
 * identical retries sent at once, spread round robin over three processes on one database.
 */
describe.each(databaseKinds)("identical signed retries spread over three instances ($name)", (kind) => {
  let cluster: Cluster
  beforeAll(async () => {
    cluster = await startCluster(await kind.fresh(), 3)
  }, 60_000)
  afterAll(async () => cluster?.stop())

  it(`${RETRIES} copies of one retry create one credential: one 201, every other copy 401 REQUEST_ID_ALREADY_USED`, async () => {
    const [a, b, c] = cluster.instances
    // The wallet is made on one instance, the login on another, the challenge on a third: all state is in the database.
    const w = await newWallet(a!)
    const { key } = await loginWithOtp(b!, w.emailCredentialId)
    const body = { type: "OAUTH", accountId: w.accountId, oidcToken: mintOidcToken({ sub: "multi-instance" }) }
    const challenge = await c!.request("POST", `${V}/auth/credentials`, { body })
    expect(challenge.status).toBe(202)
    const headers = { "service-wallet-signature": stamp(key.privateKey, challenge.body.payloadToSign), "request-id": challenge.body.requestId }

    const replies = await Promise.all(Array.from({ length: RETRIES }, (_, i) => cluster.pick(i).request("POST", `${V}/auth/credentials`, { body, headers })))

    const created = replies.filter((r) => r.status === 201)
    expect(created).toHaveLength(1)
    expect(replies.filter((r) => r.status === 401 && r.body.details.reason === "REQUEST_ID_ALREADY_USED")).toHaveLength(RETRIES - 1)
    // Every instance sees the one credential, and only it.
    for (const i of cluster.instances) {
      const creds = await i.request("GET", `${V}/auth/credentials?accountId=${encodeURIComponent(w.accountId)}`)
      expect(creds.body.data.filter((x: { type: string }) => x.type === "OAUTH").map((x: { id: string }) => x.id)).toEqual([created[0]!.body.id])
    }
  })
})
