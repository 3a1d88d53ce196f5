import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { randomUUID } from "node:crypto"
import { Effect } from "effect"
import { InternalAccounts, type PlatformRecord, Store } from "@tessera/core"
import { custodiedKeyPair, delegatedKeyStamp } from "@tessera/core/operations"
import { stamp } from "@tessera/core/testing"
import { currencies, newInternalAccount } from "../../packages/core/src/domain/internal-accounts/internal-account.ts"
import { accountQuote, balances, execute, fund, platformBankAccount, quote } from "../quotes/support.ts"
import { CLIENT_ID, CLIENT_SECRET, startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { loginWithOtp, retry, V } from "../support/wallet.ts"
import { cardOf, createBody, createKey, newCardId, PATH, payloadOf, walletWithCard } from "./support.ts"

/**
 * A delegated key is for a card funding source: a real card of the platform that lists the wallet
 * among its funding sources (DECISIONS #261). Checked at every leg of a creation, and again each
 * time the key would sign.
 */
describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("delegated keys bound to cards (%s store)", (kind) => {
  let t: TestServer
  let platform: PlatformRecord
  beforeAll(async () => {
    t = await startTestServer(kind, { clock: "virtual" })
    platform = await t.engine.platform({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET })
  })
  afterAll(async () => t.close())

  /** A second USDB account of the customer: the sandbox provisions one per customer, so it is written to the store. */
  const secondAccount = async (customerId: string) => {
    const id = `InternalAccount:${randomUUID().slice(0, -3)}100`
    const account = newInternalAccount({ id, customerId, type: "INTERNAL_FIAT", currency: currencies["USDB"]!, now: "2026-01-01T00:00:00.000Z" })
    await t.engine.run(Effect.flatMap(Store, (s) => s.put(InternalAccounts, platform.id, account)))
    return id
  }
  const keysOf = async (accountId: string) => (await t.request("GET", `${PATH}?accountId=${accountId}`)).body.data as Array<{ status: string }>
  const patchCard = (id: string, body: unknown) => t.request("PATCH", `${V}/cards/${id}`, { body })

  it("404 Card for an unknown card; 404 CardFundingSource for a card the wallet does not fund, or no longer funds", async () => {
    const w = await walletWithCard(t)
    const unknown = newCardId()
    const noCard = await t.request("POST", PATH, { body: createBody(w.accountId, unknown) })
    expect([noCard.status, noCard.body.code, noCard.body.details]).toEqual([404, "REFERENCE_NOT_FOUND", { resource: "Card", id: unknown }])

    const unbound = async (cardId: string) => {
      const r = await t.request("POST", PATH, { body: createBody(w.accountId, cardId) })
      expect([r.status, r.body.code], JSON.stringify(r.body)).toEqual([404, "REFERENCE_NOT_FOUND"])
      expect(r.body.details).toMatchObject({ resource: "CardFundingSource", cardId, accountId: w.accountId })
      expect(r.body.details.id).toMatch(/^CardFundingSource:/)
    }
    // Another customer's card.
    const other = await walletWithCard(t)
    await unbound(other.cardId)
    // A card of the same customer funded by another of its accounts.
    const second = await secondAccount(w.customerId)
    await unbound(await cardOf(t, w, [second]))
    // The wallet's own card once the wallet is taken off it, and once the card is closed.
    const moved = await cardOf(t, w)
    expect((await patchCard(moved, { fundingSources: [second] })).status).toBe(200)
    await unbound(moved)
    const closed = await patchCard(w.cardId, { state: "CLOSED" })
    expect([closed.status, closed.body.fundingSources]).toEqual([200, []])
    await unbound(w.cardId)
    expect(await keysOf(w.accountId)).toEqual([])
  })

  it("a leg challenged while the card was funded by the wallet is refused with 404 at its retry once it is not", async () => {
    const w = await walletWithCard(t)
    const { key } = await loginWithOtp(t, w.emailCredentialId)
    const body = createBody(w.accountId, w.cardId)
    const first = await t.request("POST", PATH, { body })
    expect(first.status).toBe(202)
    const second = await retry(t, "POST", PATH, first, key, body)
    expect(second.status).toBe(202)
    // Another creation, challenged but not yet signed.
    const other = createBody(w.accountId, w.cardId, "other")
    const otherFirst = await t.request("POST", PATH, { body: other })
    expect(otherFirst.status).toBe(202)
    expect((await patchCard(w.cardId, { state: "CLOSED" })).status).toBe(200)
    const third = await retry(t, "POST", PATH, second, key, body)
    expect([third.status, third.body.details?.resource]).toEqual([404, "CardFundingSource"])
    const otherSecond = await retry(t, "POST", PATH, otherFirst, key, other)
    expect([otherSecond.status, otherSecond.body.details?.resource]).toEqual([404, "CardFundingSource"])
    // The key the first leg created stays PENDING; the refused legs created nothing.
    expect((await keysOf(w.accountId)).map((k) => k.status)).toEqual(["PENDING"])
    expect(payloadOf(second).parameters.delegatedKeyId).toBeDefined()
  })

  it("an ACTIVE key signs only while its card lists its wallet: off the card it is refused, back on it signs again, closed it never does", async () => {
    const w = await walletWithCard(t)
    await fund(t, w.accountId, 10_000_000)
    const { key: session } = await loginWithOtp(t, w.emailCredentialId)
    const { key } = await createKey(t, createBody(w.accountId, w.cardId), session)
    const dest = await platformBankAccount(t, "010")
    const walletQuote = async () => {
      const q = await quote(t, accountQuote(w.accountId, dest, 1_000_000))
      expect(q.status, JSON.stringify(q.body)).toBe(201)
      const challenge = await execute(t, q.body.id)
      expect(challenge.status).toBe(202)
      return { challenge, path: `${V}/quotes/${q.body.id}/execute` }
    }
    const pair = await t.engine.run(custodiedKeyPair(key.id))
    const refused = async () => {
      const q = await walletQuote()
      await expect(t.engine.run(delegatedKeyStamp(platform, key.id, q.challenge.body.payloadToSign))).rejects.toMatchObject({
        _tag: "INVALID_INPUT",
        details: { reason: "DELEGATED_KEY_FUNDING_SOURCE_UNBOUND" }
      })
      // Even stamped with the key itself, the execution is not the key's to sign any more.
      const r = await retry(t, "POST", q.path, q.challenge, stamp(pair.privateKey, q.challenge.body.payloadToSign))
      expect([r.status, r.body.details?.reason]).toEqual([401, "SIGNER_NOT_AUTHORISED"])
    }
    const signs = async () => {
      const q = await walletQuote()
      const signature = await t.engine.run(delegatedKeyStamp(platform, key.id, q.challenge.body.payloadToSign))
      expect((await retry(t, "POST", q.path, q.challenge, signature)).status).toBe(200)
    }

    const second = await secondAccount(w.customerId)
    expect((await patchCard(w.cardId, { fundingSources: [second] })).status).toBe(200)
    await refused()
    expect((await balances(t, w.accountId)).available).toBe(10_000_000)
    // The key keeps its status: the reference has none for "unbound".
    expect((await t.request("GET", `${PATH}/${key.id}`)).body.status).toBe("ACTIVE")

    expect((await patchCard(w.cardId, { fundingSources: [second, w.accountId] })).status).toBe(200)
    await signs()
    expect((await balances(t, w.accountId)).available).toBe(9_000_000)

    expect((await patchCard(w.cardId, { state: "CLOSED" })).status).toBe(200)
    await refused()
    expect((await balances(t, w.accountId)).available).toBe(9_000_000)
    // It can still be revoked.
    expect((await t.request("DELETE", `${PATH}/${key.id}`)).status).toBe(204)
  })
})
