import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { advance, bank, key, link, post, register, spark, tokenId, tokens, V } from "./support.ts"

const registration = () => ({ providerTokenIdentifier: `TOK${Math.floor(Math.random() * 1e6)}`, networkTokenIdentifier: tokenId(), network: "SPARK" })

/** Provider account links and the selection rule, each test on a fresh platform (its links are all it has). */
describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("stablecoin provider accounts over HTTP (%s store)", (kind) => {
  let t: TestServer
  beforeEach(async () => {
    t = await startTestServer(kind, { clock: "virtual" })
  })
  afterEach(async () => t.close())

  it("404 STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND: registering with no link at all, or naming one that does not exist", async () => {
    const none = await post(t, "/stablecoins", registration())
    expect([none.status, none.body.code]).toEqual([404, "STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND"])
    await link(t)
    const named = await post(t, "/stablecoins", { ...registration(), stablecoinProviderAccountId: "StablecoinProviderAccount:00000000-0000-4000-8000-000000000000" })
    expect([named.status, named.body.code]).toEqual([404, "STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND"])
    const get = await t.request("GET", `${V}/stablecoin-provider-accounts/nope`)
    expect([get.status, get.body.code]).toEqual([404, "STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND"])
  })

  it("400 STABLECOIN_PROVIDER_ACCOUNT_INVALID when the provider rejects the credentials (apiClientId ending 002): nothing linked", async () => {
    const r = await post(t, "/stablecoin-provider-accounts", { provider: "BRALE", apiClientId: "bad-client-002", apiClientSecret: "s" })
    expect([r.status, r.body.code]).toEqual([400, "STABLECOIN_PROVIDER_ACCOUNT_INVALID"])
    expect((await t.request("GET", `${V}/stablecoin-provider-accounts`)).body).toMatchObject({ data: [], hasMore: false, totalCount: 0 })
  })

  it("400 STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED with two ACTIVE links and none named; naming one registers through it", async () => {
    const a = await link(t, "client-a")
    const b = await link(t, "client-b")
    expect(a.providerAccountId).not.toBe(b.providerAccountId)
    const r = await post(t, "/stablecoins", registration())
    expect([r.status, r.body.code]).toEqual([400, "STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED"])
    expect([...r.body.details.stablecoinProviderAccountIds].sort()).toEqual([a.id, b.id].sort())
    const coin = await register(t, { stablecoinProviderAccountId: b.id })
    expect(coin.stablecoinProviderAccountId).toBe(b.id)
  })

  it("a link whose apiClientId ends 003 is REVOKED 30 s later: 400 _REVOKED for registration and for mints through it", async () => {
    const l = await link(t, "soon-revoked-003")
    const coin = await register(t)
    const wallet = await spark(t)
    await advance(t, 29)
    expect((await t.request("GET", `${V}/stablecoin-provider-accounts/${l.id}`)).body.status).toBe("ACTIVE")
    await advance(t, 1)
    const now = (await t.request("GET", `${V}/stablecoin-provider-accounts/${l.id}`)).body
    expect(now.status).toBe("REVOKED")
    expect((await t.request("GET", `${V}/stablecoin-provider-accounts?status=REVOKED`)).body.data.map((x: { id: string }) => x.id)).toEqual([l.id])
    expect((await t.request("GET", `${V}/stablecoin-provider-accounts?status=ACTIVE&provider=BRALE`)).body.data).toEqual([])
    const again = await post(t, "/stablecoins", registration())
    expect([again.status, again.body.code]).toEqual([400, "STABLECOIN_PROVIDER_ACCOUNT_REVOKED"])
    const named = await post(t, "/stablecoins", { ...registration(), stablecoinProviderAccountId: l.id })
    expect([named.status, named.body.code]).toEqual([400, "STABLECOIN_PROVIDER_ACCOUNT_REVOKED"])
    const mint = await post(t, `/stablecoins/${coin.id}/mints`, { amount: tokens(1), fundingSource: { type: "WIRE" }, destination: { accountId: wallet } })
    expect([mint.status, mint.body.code]).toEqual([400, "STABLECOIN_PROVIDER_ACCOUNT_REVOKED"])
    const burn = await post(t, `/stablecoins/${coin.id}/burns`, { amount: tokens(1), source: { type: "EXTERNAL_ACCOUNT" }, destination: { type: "EXTERNAL_ACCOUNT", externalAccountId: await bank(t), rail: "WIRE" } })
    expect([burn.status, burn.body.code]).toEqual([400, "STABLECOIN_PROVIDER_ACCOUNT_REVOKED"])

    // Linking the same provider account again refreshes it: the same link, ACTIVE, and it works.
    const relinked = await link(t, "soon-revoked-fixed", { providerAccountId: l.providerAccountId })
    expect(relinked).toMatchObject({ id: l.id, status: "ACTIVE", createdAt: l.createdAt })
    expect((await post(t, `/stablecoins/${coin.id}/mints`, { amount: tokens(1), fundingSource: { type: "WIRE" }, destination: { accountId: wallet } })).status).toBe(201)
  })

  it("linking the account again at once, with good credentials, cancels the revocation the first link would have met", async () => {
    const l = await link(t, "doomed-003")
    const fixed = await link(t, "doomed-fixed", { providerAccountId: l.providerAccountId })
    expect(fixed.id).toBe(l.id)
    await advance(t, 60)
    expect((await t.request("GET", `${V}/stablecoin-provider-accounts/${l.id}`)).body.status).toBe("ACTIVE")
  })

  it("a link whose apiClientId ends 004 turns INVALID 30 s later: 400 _INVALID for its stablecoins' operations", async () => {
    const l = await link(t, "soon-invalid-004")
    const coin = await register(t)
    await advance(t, 30)
    expect((await t.request("GET", `${V}/stablecoin-provider-accounts/${l.id}`)).body.status).toBe("INVALID")
    const mint = await post(t, `/stablecoins/${coin.id}/mints`, { amount: tokens(1), fundingSource: { type: "WIRE" }, destination: { accountId: await spark(t) } })
    expect([mint.status, mint.body.code]).toEqual([400, "STABLECOIN_PROVIDER_ACCOUNT_INVALID"])
    // A second, ACTIVE link is the one registration picks.
    const other = await link(t, "fine-client")
    expect((await register(t)).stablecoinProviderAccountId).toBe(other.id)
  })

  it("the same credentials name the same provider account; a replayed key answers the first link; another body under it is 409", async () => {
    const k = key()
    const body = { provider: "BRALE", apiClientId: "same-client", apiClientSecret: "s1" }
    const first = await post(t, "/stablecoin-provider-accounts", body, k)
    expect((await post(t, "/stablecoin-provider-accounts", body, k)).body).toEqual(first.body)
    const conflict = await post(t, "/stablecoin-provider-accounts", { ...body, apiClientSecret: "s2" }, k)
    expect([conflict.status, conflict.body.code]).toEqual([409, "CONFLICT"])
    const again = await link(t, "same-client")
    expect([again.id, again.providerAccountId]).toEqual([first.body.id, first.body.providerAccountId])
    expect(again.providerAccountId).toMatch(/^[0-9A-Za-z]{27}$/)
    const list = await t.request("GET", `${V}/stablecoin-provider-accounts?limit=1`)
    expect(list.body).toMatchObject({ hasMore: false, totalCount: 1 })
  })
})
