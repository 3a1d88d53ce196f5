import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { PlatformRecord } from "@tessera/core"
import { custodiedKeyPair, delegatedKeyStamp } from "@tessera/core/operations"
import { newKeyPair, stamp } from "@tessera/core/testing"
import { CLIENT_ID, CLIENT_SECRET, startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { loginWithOtp, retry, V } from "../support/wallet.ts"
import { accountQuote, balances, execute, fund, platformBankAccount, quote } from "../quotes/support.ts"
import { createBody, createKey, PATH, payloadOf, walletWithCard } from "./support.ts"

/**
 * What a delegated key is for: the server stamps the wallet's quote executions with it in place
 * of a session, while it is ACTIVE, and for its own wallet only.
 */
describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("a delegated key as the wallet's signer (%s store)", (kind) => {
  let t: TestServer
  let platform: PlatformRecord
  beforeAll(async () => {
    t = await startTestServer(kind, { clock: "virtual" })
    platform = await t.engine.platform({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET })
  })
  afterAll(async () => t.close())

  const walletQuote = async (accountId: string) => {
    const dest = await platformBankAccount(t, "010")
    const q = await quote(t, accountQuote(accountId, dest, 1_000_000))
    expect(q.status, JSON.stringify(q.body)).toBe(201)
    const challenge = await execute(t, q.body.id)
    expect(challenge.status).toBe(202)
    return { q, challenge, path: `${V}/quotes/${q.body.id}/execute` }
  }

  it("an ACTIVE key's stamp executes the wallet's quote; once revoked, the same key is refused (401) and nothing moves", async () => {
    const w = await walletWithCard(t)
    await fund(t, w.accountId, 10_000_000)
    const { key: session } = await loginWithOtp(t, w.emailCredentialId)
    const { key } = await createKey(t, createBody(w.accountId, w.cardId), session)
    const first = await walletQuote(w.accountId)
    const signature = await t.engine.run(delegatedKeyStamp(platform, key.id, first.challenge.body.payloadToSign))
    // The stamp carries the key the API showed: the private key never left the server.
    expect(JSON.parse(Buffer.from(signature, "base64url").toString()).publicKey).toBe(key.publicKey)
    const done = await retry(t, "POST", first.path, first.challenge, signature)
    expect(done.status, JSON.stringify(done.body)).toBe(200)
    expect((await balances(t, w.accountId)).available).toBe(9_000_000)

    expect((await t.request("DELETE", `${PATH}/${key.id}`)).status).toBe(204)
    const second = await walletQuote(w.accountId)
    await expect(t.engine.run(delegatedKeyStamp(platform, key.id, second.challenge.body.payloadToSign))).rejects.toMatchObject({ _tag: "INVALID_INPUT" })
    // Even with the key material in hand, a revoked key's stamp is not a signer any more.
    const pair = await t.engine.run(custodiedKeyPair(key.id))
    const refused = await retry(t, "POST", second.path, second.challenge, stamp(pair.privateKey, second.challenge.body.payloadToSign))
    expect([refused.status, refused.body.details.reason]).toEqual([401, "SIGNER_NOT_AUTHORISED"])
    expect((await balances(t, w.accountId)).available).toBe(9_000_000)
    // The wallet's own session still signs.
    expect((await retry(t, "POST", second.path, second.challenge, session)).status).toBe(200)
  })

  it("an imported key record naming a key this server does not custody never signs (401), even when ACTIVE", async () => {
    const w = await walletWithCard(t)
    await fund(t, w.accountId, 10_000_000)
    const { key: session } = await loginWithOtp(t, w.emailCredentialId)
    const { key } = await createKey(t, createBody(w.accountId, w.cardId), session)
    // A state document whose ACTIVE key record names the importer's own public key.
    const forged = newKeyPair()
    const doc = (await t.request("GET", `${V}/sandbox/state`)).body
    for (const k of doc.collections.delegatedKeys) if (k.id === key.id) k.publicKey = forged.publicKey
    expect((await t.request("PUT", `${V}/sandbox/state`, { body: doc })).status).toBe(200)
    const { challenge, path } = await walletQuote(w.accountId)
    const refused = await retry(t, "POST", path, challenge, stamp(forged, challenge.body.payloadToSign))
    expect([refused.status, refused.body.details.reason]).toEqual([401, "SIGNER_NOT_AUTHORISED"])
    expect((await balances(t, w.accountId)).available).toBe(10_000_000)
  })

  it("a PENDING key cannot sign, nor can another wallet's ACTIVE key", async () => {
    const w = await walletWithCard(t)
    await fund(t, w.accountId, 10_000_000)
    const { key: session } = await loginWithOtp(t, w.emailCredentialId)
    const body = createBody(w.accountId, w.cardId)
    const first = await t.request("POST", PATH, { body })
    const second = await retry(t, "POST", PATH, first, session, body)
    const pendingId = payloadOf(second).parameters.delegatedKeyId as string
    const other = await walletWithCard(t)
    const { key: otherSession } = await loginWithOtp(t, other.emailCredentialId)
    const { key: othersKey } = await createKey(t, createBody(other.accountId, other.cardId), otherSession)
    const q = await walletQuote(w.accountId)
    for (const id of [pendingId, othersKey.id]) {
      const pair = await t.engine.run(custodiedKeyPair(id))
      const refused = await retry(t, "POST", q.path, q.challenge, stamp(pair.privateKey, q.challenge.body.payloadToSign))
      expect([refused.status, refused.body.details.reason]).toEqual([401, "SIGNER_NOT_AUTHORISED"])
    }
    expect((await balances(t, w.accountId)).available).toBe(10_000_000)
  })

  it("a delegated key signs money movement only: it cannot approve revoking the wallet's session", async () => {
    const w = await walletWithCard(t)
    const { session, key: sessionKey } = await loginWithOtp(t, w.emailCredentialId)
    const { key } = await createKey(t, createBody(w.accountId, w.cardId), sessionKey)
    const path = `${V}/auth/sessions/${session.id}`
    const challenge = await t.request("DELETE", path)
    expect(challenge.status, JSON.stringify(challenge.body)).toBe(202)
    const signature = await t.engine.run(delegatedKeyStamp(platform, key.id, challenge.body.payloadToSign))
    const refused = await retry(t, "DELETE", path, challenge, signature)
    expect([refused.status, refused.body.details.reason]).toEqual([401, "SIGNER_NOT_AUTHORISED"])
    expect((await retry(t, "DELETE", path, challenge, sessionKey)).status).toBe(204)
  })
})
