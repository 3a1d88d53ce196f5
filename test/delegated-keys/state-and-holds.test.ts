import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { delegatedKeyStamp } from "@tessera/core/operations"
import { stamp } from "@tessera/core/testing"
import { CLIENT_ID, CLIENT_SECRET, startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { loginWithOtp, retry, V } from "../support/wallet.ts"
import { createBody, createKey, PATH, payloadOf, walletWithCard } from "./support.ts"

describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("delegated keys: holds and state documents (%s store)", (kind) => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer(kind, { clock: "virtual" })
  })
  afterAll(async () => t.close())

  it("a held leg answers PROCESSING, settles after the hold (on the re-send or when listing), and runs once", async () => {
    const w = await walletWithCard(t)
    const { key } = await loginWithOtp(t, w.emailCredentialId)
    const body = createBody(w.accountId, w.cardId)
    const first = await t.request("POST", PATH, { body })
    expect((await t.request("POST", `${V}/sandbox/internal-accounts/${w.accountId}/processing`, { body: { operations: 1, seconds: 10 } })).status).toBe(200)
    const signature = stamp(key, first.body.payloadToSign)
    const held = await retry(t, "POST", PATH, first, signature, body)
    expect([held.status, held.body.status]).toEqual([200, "PROCESSING"])
    expect((await t.request("GET", `${PATH}?accountId=${w.accountId}`)).body.data).toEqual([])
    expect((await t.request("POST", `${V}/sandbox/clock/advance`, { body: { seconds: 10 } })).status).toBe(200)
    // Listing settles the held leg: the key is PENDING now, and the re-send gets the same answer.
    const listed = await t.request("GET", `${PATH}?accountId=${w.accountId}`)
    expect(listed.body.data.map((k: any) => k.status)).toEqual(["PENDING"])
    const settled = await retry(t, "POST", PATH, first, signature, body)
    expect(settled.status, JSON.stringify(settled.body)).toBe(202)
    expect(payloadOf(settled).parameters.delegatedKeyId).toBe(listed.body.data[0].id)
    const done = await retry(t, "POST", PATH, settled, key, body)
    expect([done.status, done.body.status]).toEqual([201, "ACTIVE"])
    expect((await t.request("GET", `${PATH}?accountId=${w.accountId}`)).body.data).toHaveLength(1)
  })

  it("keys travel in the state document; another server keeps their records but does not custody their private keys", async () => {
    const w = await walletWithCard(t)
    const { key } = await loginWithOtp(t, w.emailCredentialId)
    const { key: active } = await createKey(t, createBody(w.accountId, w.cardId), key)
    const doc = (await t.request("GET", `${V}/sandbox/state`)).body
    expect(doc.collections.delegatedKeys.map((k: any) => k.id)).toContain(active.id)
    expect(JSON.stringify(doc.collections.delegatedKeys)).not.toMatch(/privateKey/)
    const other = await startTestServer(kind, { clock: "virtual" })
    try {
      expect((await other.request("PUT", `${V}/sandbox/state`, { body: doc })).status).toBe(200)
      expect((await other.request("GET", `${PATH}/${active.id}`)).body).toEqual(active)
      const platform = await other.engine.platform({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET })
      await expect(other.engine.run(delegatedKeyStamp(platform, active.id, "payload"))).rejects.toMatchObject({ details: { reason: "DELEGATED_KEY_NOT_CUSTODIED" } })
      // The one-ACTIVE rule holds for imported keys too.
      const again = await other.request("POST", PATH, { body: { cardId: active.cardId, internalAccountId: w.accountId, nickname: "again" } })
      expect([again.status, again.body.code]).toEqual([409, "CONFLICT"])
    } finally {
      await other.close()
    }
  })
})
