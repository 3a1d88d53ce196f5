import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { newKeyPair, stamp } from "@tessera/core/testing"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { loginWithOtp, retry, V } from "../support/wallet.ts"
import { cardOf, createBody, createKey, newCardId, PATH, payloadOf, walletWithCard } from "./support.ts"

describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("delegated keys over HTTP (%s store)", (kind) => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer(kind, { clock: "virtual" })
  })
  afterAll(async () => t.close())

  it("creation takes three legs: 202 with the key to create, 202 with the policy, 201 ACTIVE; get and list show it", async () => {
    const w = await walletWithCard(t)
    const { key } = await loginWithOtp(t, w.emailCredentialId)
    const body = createBody(w.accountId, w.cardId)
    const first = await t.request("POST", PATH, { body })
    expect(first.status, JSON.stringify(first.body)).toBe(202)
    expect(first.body.requestId).toMatch(/^Request:/)
    const users = payloadOf(first)
    expect(users.type).toBe("ACTIVITY_TYPE_CREATE_USERS")
    const publicKey = users.parameters.apiKeys[0].publicKey as string
    expect(publicKey).toMatch(/^0[23][0-9a-f]{64}$/)
    // Nothing exists until the wallet signs.
    expect((await t.request("GET", `${PATH}?accountId=${w.accountId}`)).body.data).toEqual([])
    const second = await retry(t, "POST", PATH, first, key, body)
    expect(second.status, JSON.stringify(second.body)).toBe(202)
    expect(second.body.requestId).not.toBe(first.body.requestId)
    const policy = payloadOf(second)
    expect(policy).toMatchObject({ type: "ACTIVITY_TYPE_CREATE_POLICIES", parameters: { walletId: w.accountId, publicKey } })
    const pending = await t.request("GET", `${PATH}?accountId=${w.accountId}`)
    expect(pending.body.data.map((k: any) => [k.id, k.status])).toEqual([[policy.parameters.delegatedKeyId, "PENDING"]])
    const third = await retry(t, "POST", PATH, second, key, body)
    expect(third.status, JSON.stringify(third.body)).toBe(201)
    expect(third.body).toMatchObject({
      id: policy.parameters.delegatedKeyId,
      cardId: body.cardId,
      accountId: w.accountId,
      publicKey,
      nickname: body.nickname,
      status: "ACTIVE"
    })
    expect(third.body.fundingSourceId).toMatch(/^CardFundingSource:/)
    const got = await t.request("GET", `${PATH}/${third.body.id}`)
    expect([got.status, got.body]).toEqual([200, third.body])
    const byAccount = await t.request("GET", `${PATH}?accountId=${w.accountId}`)
    const bySource = await t.request("GET", `${PATH}?fundingSourceId=${third.body.fundingSourceId}`)
    const byBoth = await t.request("GET", `${PATH}?accountId=${w.accountId}&fundingSourceId=${third.body.fundingSourceId}`)
    for (const r of [byAccount, bySource, byBoth]) expect(r.body.data).toEqual([third.body])
    // Another card of the same wallet is another funding source.
    const other = await createKey(t, createBody(w.accountId, await cardOf(t, w)), key)
    expect(other.key.fundingSourceId).not.toBe(third.body.fundingSourceId)
    expect((await t.request("GET", `${PATH}?accountId=${w.accountId}`)).body.data).toHaveLength(2)
    expect((await t.request("GET", `${PATH}?fundingSourceId=${third.body.fundingSourceId}`)).body.data).toHaveLength(1)
  })

  it("400 lists every invalid field of the body and of the list query", async () => {
    const bad = await t.request("POST", PATH, { body: { cardId: "card-1", internalAccountId: 7, nickname: "" } })
    expect([bad.status, bad.body.code]).toEqual([400, "INVALID_INPUT"])
    expect(bad.body.details.errors.map((e: any) => e.field).sort()).toEqual(["cardId", "internalAccountId", "nickname"])
    const missing = await t.request("POST", PATH, { body: {} })
    expect(missing.body.details.errors.map((e: any) => e.field).sort()).toEqual(["cardId", "internalAccountId", "nickname"])
    const neither = await t.request("GET", PATH)
    expect([neither.status, neither.body.details.errors.map((e: any) => e.field)]).toEqual([400, ["accountId", "fundingSourceId"]])
    const malformed = await t.request("GET", `${PATH}?accountId=x&fundingSourceId=y`)
    expect([malformed.status, malformed.body.details.errors.map((e: any) => e.field).sort()]).toEqual([400, ["accountId", "fundingSourceId"]])
    const unknown = await t.request("GET", `${PATH}?accountId=InternalAccount:00000000-0000-4000-8000-000000000000`)
    expect([unknown.status, unknown.body.data]).toEqual([200, []])
  })

  it("404 for a wallet that is not an embedded wallet of the platform, and for an unknown key", async () => {
    const missing = await t.request("POST", PATH, { body: createBody("InternalAccount:00000000-0000-4000-8000-000000000000", newCardId()) })
    expect([missing.status, missing.body.code, missing.body.details.resource]).toEqual([404, "REFERENCE_NOT_FOUND", "InternalAccount"])
    const platformAccount = (await t.request("GET", `${V}/platform/internal-accounts`)).body.data[0].id
    const notWallet = await t.request("POST", PATH, { body: createBody(platformAccount, newCardId()) })
    expect([notWallet.status, notWallet.body.code]).toEqual([404, "REFERENCE_NOT_FOUND"])
    for (const id of ["DelegatedKey:00000000-0000-4000-8000-000000000000", "nope"]) {
      const got = await t.request("GET", `${PATH}/${id}`)
      expect([got.status, got.body.code, got.body.details.resource]).toEqual([404, "REFERENCE_NOT_FOUND", "DelegatedKey"])
      const del = await t.request("DELETE", `${PATH}/${id}`)
      expect([del.status, del.body.code]).toEqual([404, "REFERENCE_NOT_FOUND"])
    }
  })

  it("409 while the funding source has an ACTIVE key; an abandoned PENDING key blocks nothing; revoking frees the source", async () => {
    const w = await walletWithCard(t)
    const { key } = await loginWithOtp(t, w.emailCredentialId)
    const body = createBody(w.accountId, w.cardId)
    // Abandoned after the second leg: PENDING stays, and a new creation goes through.
    const first = await t.request("POST", PATH, { body })
    const abandoned = await retry(t, "POST", PATH, first, key, body)
    expect(abandoned.status).toBe(202)
    const { key: active } = await createKey(t, body, key)
    const conflict = await t.request("POST", PATH, { body })
    expect([conflict.status, conflict.body.code, conflict.body.details.reason]).toEqual([409, "CONFLICT", "DELEGATED_KEY_ALREADY_ACTIVE"])
    // Whatever the nickname: the funding source is the card and wallet pair.
    const renamed = await t.request("POST", PATH, { body: { ...body, nickname: "second" } })
    expect(renamed.status).toBe(409)
    expect((await t.request("DELETE", `${PATH}/${active.id}`)).status).toBe(204)
    const again = await createKey(t, body, key)
    expect(again.key.status).toBe("ACTIVE")
    const statuses = (await t.request("GET", `${PATH}?fundingSourceId=${active.fundingSourceId}`)).body.data.map((k: any) => k.status)
    expect(statuses).toEqual(["PENDING", "REVOKED", "ACTIVE"])
  })

  it("a leg issued while no key was ACTIVE is refused with 409 at its retry once another became ACTIVE", async () => {
    const w = await walletWithCard(t)
    const { key } = await loginWithOtp(t, w.emailCredentialId)
    const body = createBody(w.accountId, w.cardId)
    const early = await t.request("POST", PATH, { body: { ...body, nickname: "early" } })
    expect(early.status).toBe(202)
    await createKey(t, body, key)
    const refused = await retry(t, "POST", PATH, early, key, { ...body, nickname: "early" })
    expect([refused.status, refused.body.code]).toEqual([409, "CONFLICT"])
    // The refusal changed nothing: still one key for the source.
    expect((await t.request("GET", `${PATH}?accountId=${w.accountId}`)).body.data).toHaveLength(1)
  })

  it("signed-retry failures are 401 and leave nothing behind: missing signature, wrong signer, bad stamp, other body; a request id is consumed once", async () => {
    const w = await walletWithCard(t)
    const { key } = await loginWithOtp(t, w.emailCredentialId)
    const body = createBody(w.accountId, w.cardId)
    const first = await t.request("POST", PATH, { body })
    const noSignature = await t.request("POST", PATH, { body, headers: { "request-id": first.body.requestId } })
    expect([noSignature.status, noSignature.body.code]).toEqual([401, "WALLET_SIGNATURE_MISSING"])
    const noRequestId = await t.request("POST", PATH, { body, headers: { "service-wallet-signature": stamp(key, first.body.payloadToSign) } })
    expect([noRequestId.status, noRequestId.body.code]).toEqual([401, "REQUEST_ID_MISSING"])
    // A well-formed stamp by a key with no session on the wallet.
    const stranger = await retry(t, "POST", PATH, first, newKeyPair(), body)
    expect(stranger.status).toBe(401)
    // The right key over another payload.
    const wrongPayload = await retry(t, "POST", PATH, first, stamp(key, "something else"), body)
    expect(wrongPayload.status).toBe(401)
    const garbage = await retry(t, "POST", PATH, first, "not-a-stamp", body)
    expect(garbage.status).toBe(401)
    const otherBody = await retry(t, "POST", PATH, first, key, { ...body, nickname: "changed" })
    expect(otherBody.status).toBe(401)
    expect((await t.request("GET", `${PATH}?accountId=${w.accountId}`)).body.data).toEqual([])
    // The genuine retry still works, once.
    const signature = stamp(key, first.body.payloadToSign)
    const second = await retry(t, "POST", PATH, first, signature, body)
    expect(second.status).toBe(202)
    const reused = await retry(t, "POST", PATH, first, signature, body)
    expect(reused.status).toBe(401)
    expect((await t.request("GET", `${PATH}?accountId=${w.accountId}`)).body.data).toHaveLength(1)
    const third = await retry(t, "POST", PATH, second, key, body)
    expect(third.status).toBe(201)
    const thirdAgain = await retry(t, "POST", PATH, second, key, body)
    expect(thirdAgain.status).toBe(401)
    // One key came of it all.
    expect((await t.request("GET", `${PATH}?accountId=${w.accountId}`)).body.data.map((k: any) => k.status)).toEqual(["ACTIVE"])
  })

  it("revoke: 204 for an ACTIVE key, then 400 for REVOKED and for PENDING keys", async () => {
    const w = await walletWithCard(t)
    const { key } = await loginWithOtp(t, w.emailCredentialId)
    const { key: active } = await createKey(t, createBody(w.accountId, w.cardId), key)
    const del = await t.request("DELETE", `${PATH}/${active.id}`)
    expect(del.status).toBe(204)
    const after = await t.request("GET", `${PATH}/${active.id}`)
    expect(after.body.status).toBe("REVOKED")
    const twice = await t.request("DELETE", `${PATH}/${active.id}`)
    expect([twice.status, twice.body.code, twice.body.details.reason]).toEqual([400, "INVALID_INPUT", "DELEGATED_KEY_ALREADY_REVOKED"])
    const body = createBody(w.accountId, await cardOf(t, w))
    const first = await t.request("POST", PATH, { body })
    const second = await retry(t, "POST", PATH, first, key, body)
    const pendingId = payloadOf(second).parameters.delegatedKeyId
    const pending = await t.request("DELETE", `${PATH}/${pendingId}`)
    expect([pending.status, pending.body.details.reason]).toEqual([400, "DELEGATED_KEY_NOT_ACTIVE"])
  })
})
