import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { advance, balance, bank, key, link, operation, platformUsd, post, register, spark, tokenId, tokens, V } from "./support.ts"

/**
 * Stablecoin issuance over HTTP on every store, each response checked against the reference
 * OpenAPI by the test server. Each test uses its own server (one platform), so the selection rule
 * sees only the links the test made.
 */
describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("stablecoins over HTTP (%s store)", (kind) => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer(kind, { clock: "virtual" })
  })
  afterAll(async () => t.close())

  it("links provider credentials, registers a token through the one ACTIVE link, reads and lists both", async () => {
    const l = await link(t, "acme-client", { providerAccountId: "2VcUIonJeVQzFoBuC7LdFT0dRe4" })
    expect(l).toMatchObject({ provider: "BRALE", providerAccountId: "2VcUIonJeVQzFoBuC7LdFT0dRe4", providerEnvironment: "SANDBOX", status: "ACTIVE" })
    expect(l.id).toMatch(/^StablecoinProviderAccount:[0-9a-f-]{36}$/)
    expect(JSON.stringify(l)).not.toContain("secret-456")
    expect((await t.request("GET", `${V}/stablecoin-provider-accounts/${l.id}`)).body).toEqual(l)

    const coin = await register(t, { providerTokenIdentifier: "acme" })
    expect(coin).toMatchObject({
      name: "Acme Dollar",
      symbol: "ACME",
      baseCurrency: "USD",
      network: "SPARK",
      decimals: 6,
      issuanceStatus: "PROVISIONED",
      gridOperationsStatus: "NOT_ENABLED",
      provider: "BRALE",
      stablecoinProviderAccountId: l.id,
      providerEnvironment: "SANDBOX",
      providerTokenIdentifier: "acme"
    })
    expect(coin.currency).toBeUndefined()
    expect((await t.request("GET", `${V}/stablecoins/${coin.id}`)).body).toEqual(coin)
    const listed = await t.request("GET", `${V}/stablecoins?issuanceStatus=PROVISIONED&gridOperationsStatus=NOT_ENABLED&provider=BRALE`)
    expect(listed.body.data.map((c: { id: string }) => c.id)).toContain(coin.id)
    expect((await t.request("GET", `${V}/stablecoins?issuanceStatus=REJECTED`)).body).toMatchObject({ data: [], hasMore: false, totalCount: 0 })

    // The same token again, by either identifier: 409 CONFLICT.
    const again = await post(t, "/stablecoins", { providerTokenIdentifier: "ACME", networkTokenIdentifier: tokenId(), network: "SPARK" })
    expect([again.status, again.body.code, again.body.details.stablecoinId]).toEqual([409, "CONFLICT", coin.id])
    const sameNetwork = await post(t, "/stablecoins", { providerTokenIdentifier: "OTHER", networkTokenIdentifier: coin.networkTokenIdentifier, network: "SPARK" })
    expect([sameNetwork.status, sameNetwork.body.details.field]).toEqual([409, "networkTokenIdentifier"])
  })

  it("mints from the platform's USD internal account: held at once, then COMPLETED on the engine's clock", async () => {
    const coin = await register(t)
    const wallet = await spark(t)
    const funding = await platformUsd(t, 5_000)
    const before = await balance(t, funding)
    const r = await post(t, `/stablecoins/${coin.id}/mints`, {
      amount: tokens(12.5),
      fundingSource: { type: "GRID_INTERNAL_ACCOUNT", accountId: funding },
      destination: { accountId: wallet },
      description: "Initial program funding mint"
    })
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    expect(r.body).toMatchObject({
      stablecoinId: coin.id,
      operationType: "MINT",
      status: "PENDING_PROVIDER",
      amount: "12500000",
      provider: "BRALE",
      providerEnvironment: "SANDBOX",
      stablecoinProviderAccountId: coin.stablecoinProviderAccountId,
      source: { type: "GRID_INTERNAL_ACCOUNT", accountId: funding },
      destination: { accountId: wallet },
      providerStatus: "pending",
      description: "Initial program funding mint"
    })
    expect(r.body.id).toMatch(/^StablecoinOperation:/)
    expect(await balance(t, funding)).toBe(before - 1250)
    await advance(t, 10)
    expect((await operation(t, r.body.id)).status).toBe("PROCESSING")
    await advance(t, 10)
    expect(await operation(t, r.body.id)).toMatchObject({ status: "COMPLETED", providerStatus: "complete" })
    expect(await balance(t, funding)).toBe(before - 1250)
  })

  it("400 INVALID_AMOUNT (INSUFFICIENT_BALANCE) when the internal account cannot fund the mint; nothing is created", async () => {
    const coin = await register(t)
    const wallet = await spark(t)
    const funding = await platformUsd(t)
    const have = await balance(t, funding)
    const r = await post(t, `/stablecoins/${coin.id}/mints`, {
      amount: String((have + 1) * 10_000),
      fundingSource: { type: "GRID_INTERNAL_ACCOUNT", accountId: funding },
      destination: { accountId: wallet }
    })
    expect([r.status, r.body.code, r.body.details.reason]).toEqual([400, "INVALID_AMOUNT", "INSUFFICIENT_BALANCE"])
    expect((await t.request("GET", `${V}/stablecoins/${coin.id}/operations`)).body).toMatchObject({ data: [], totalCount: 0 })
    expect(await balance(t, funding)).toBe(have)
  })

  it("a wire-funded mint waits PENDING_FUNDING with instructions and an expiry; the sandbox wire arrives 60 s later", async () => {
    const coin = await register(t)
    const r = await post(t, `/stablecoins/${coin.id}/mints`, { amount: tokens(100), fundingSource: { type: "WIRE" }, destination: { accountId: await spark(t) } })
    expect(r.status).toBe(201)
    expect(r.body).toMatchObject({ status: "PENDING_FUNDING", source: { type: "WIRE" }, fundingInstructions: { rail: "WIRE", amount: "10000", currency: "USD" } })
    expect(Date.parse(r.body.expiresAt) - Date.parse(r.body.createdAt)).toBe(7 * 24 * 3600 * 1000)
    await advance(t, 60)
    expect((await operation(t, r.body.id)).status).toBe("PROCESSING")
    await advance(t, 10)
    expect((await operation(t, r.body.id)).status).toBe("COMPLETED")
  })

  it("sandbox amounts: cents ending 002 fail (hold given back), 003 never funded (EXPIRED)", async () => {
    const coin = await register(t)
    const wallet = await spark(t)
    const funding = await platformUsd(t, 100_000)
    const before = await balance(t, funding)
    const failing = await post(t, `/stablecoins/${coin.id}/mints`, { amount: tokens(10.02), fundingSource: { type: "GRID_INTERNAL_ACCOUNT", accountId: funding }, destination: { accountId: wallet } })
    expect(await balance(t, funding)).toBe(before - 1002)
    await advance(t, 20)
    expect(await operation(t, failing.body.id)).toMatchObject({ status: "FAILED", failureReason: "PROVIDER_TRANSFER_FAILED", providerStatus: "failed" })
    expect(await balance(t, funding)).toBe(before)

    const unfunded = await post(t, `/stablecoins/${coin.id}/mints`, { amount: tokens(10.03), fundingSource: { type: "WIRE" }, destination: { accountId: wallet } })
    await advance(t, 7 * 24 * 3600 - 1)
    expect((await operation(t, unfunded.body.id)).status).toBe("PENDING_FUNDING")
    await advance(t, 1)
    expect((await operation(t, unfunded.body.id)).status).toBe("EXPIRED")

    // An operation that waits for no money ignores 003 and completes.
    const direct = await post(t, `/stablecoins/${coin.id}/mints`, { amount: tokens(10.03), fundingSource: { type: "PROVIDER_INTERNAL_BALANCE", sourceTokenIdentifier: "USDC", cryptoNetwork: "SOLANA" }, destination: { accountId: wallet } })
    expect(direct.body).toMatchObject({ status: "PENDING_PROVIDER", source: { type: "PROVIDER_INTERNAL_BALANCE", sourceTokenIdentifier: "USDC", cryptoNetwork: "SOLANA" } })
    await advance(t, 20)
    expect((await operation(t, direct.body.id)).status).toBe("COMPLETED")
  })

  it("burns pay out of the reserve the mints built, and no more: INVALID_AMOUNT beyond it", async () => {
    const coin = await register(t)
    const wallet = await spark(t)
    const payout = await bank(t)
    const ach = await post(t, `/stablecoins/${coin.id}/mints`, { amount: tokens(50), fundingSource: { type: "ACH_DEBIT", externalAccountId: payout }, destination: { accountId: wallet } })
    expect(ach.body).toMatchObject({ status: "PENDING_PROVIDER", source: { type: "ACH_DEBIT", externalAccountId: payout } })
    // Before the mint completes there is nothing to redeem.
    const early = await post(t, `/stablecoins/${coin.id}/burns`, { amount: tokens(1), source: { type: "PROVIDER_INTERNAL_BALANCE" }, destination: { type: "EXTERNAL_ACCOUNT", externalAccountId: payout, rail: "ACH_CREDIT" } })
    expect([early.status, early.body.code, early.body.details.reason]).toEqual([400, "INVALID_AMOUNT", "INSUFFICIENT_BALANCE"])
    await advance(t, 20)
    expect((await operation(t, ach.body.id)).status).toBe("COMPLETED")

    const burn = await post(t, `/stablecoins/${coin.id}/burns`, {
      amount: tokens(30),
      source: { type: "PROVIDER_INTERNAL_BALANCE" },
      destination: { type: "EXTERNAL_ACCOUNT", externalAccountId: payout, rail: "ACH_CREDIT" },
      description: "Redeem ACME"
    })
    expect(burn.status, JSON.stringify(burn.body)).toBe(201)
    expect(burn.body).toMatchObject({
      operationType: "BURN",
      status: "PENDING_PROVIDER",
      destination: { accountId: payout, rail: "ACH_CREDIT" },
      estimatedDelivery: { rail: "ACH_CREDIT", amount: "3000", currency: "USD", timing: "1-3 business days" }
    })
    // 30 of the 50 are held for this burn: 21 more is too much, 20 is not.
    const over = await post(t, `/stablecoins/${coin.id}/burns`, { amount: tokens(21), source: { type: "EXTERNAL_ACCOUNT" }, destination: { type: "EXTERNAL_ACCOUNT", externalAccountId: payout, rail: "WIRE" } })
    expect([over.status, over.body.details.reason]).toEqual([400, "INSUFFICIENT_BALANCE"])
    const deposit = await post(t, `/stablecoins/${coin.id}/burns`, { amount: tokens(20), source: { type: "EXTERNAL_ACCOUNT" }, destination: { type: "EXTERNAL_ACCOUNT", externalAccountId: payout, rail: "WIRE" } })
    expect(deposit.body).toMatchObject({ status: "PENDING_FUNDING", source: { type: "EXTERNAL_ACCOUNT" }, fundingInstructions: { rail: "SPARK", network: "SPARK", valueType: coin.symbol } })
    expect(deposit.body.fundingInstructions.address).toMatch(/^spark1/)

    const list = await t.request("GET", `${V}/stablecoins/${coin.id}/operations`)
    expect(list.body.data.map((o: { id: string }) => o.id)).toEqual([deposit.body.id, burn.body.id, ach.body.id])
    expect(list.body.totalCount).toBe(3)
    const mints = await t.request("GET", `${V}/stablecoins/${coin.id}/operations?operationType=MINT`)
    expect(mints.body.data.map((o: { id: string }) => o.id)).toEqual([ach.body.id])
    const page = await t.request("GET", `${V}/stablecoins/${coin.id}/operations?limit=2`)
    expect(page.body.hasMore).toBe(true)
    const rest = await t.request("GET", `${V}/stablecoins/${coin.id}/operations?limit=2&cursor=${page.body.nextCursor}`)
    expect(rest.body.data.map((o: { id: string }) => o.id)).toEqual([ach.body.id])
  })

  it("Idempotency-Key: required, the same request answers its first 201 again, another request under it is 409", async () => {
    const coin = await register(t)
    const wallet = await spark(t)
    const body = { amount: tokens(1), fundingSource: { type: "WIRE" }, destination: { accountId: wallet } }
    const k = key()
    const first = await post(t, `/stablecoins/${coin.id}/mints`, body, k)
    const second = await post(t, `/stablecoins/${coin.id}/mints`, body, k)
    expect(second.body).toEqual(first.body)
    const other = await post(t, `/stablecoins/${coin.id}/mints`, { ...body, amount: tokens(2) }, k)
    expect([other.status, other.body.code]).toEqual([409, "CONFLICT"])
    const missing = await post(t, `/stablecoins/${coin.id}/mints`, { amount: "x" }, null)
    expect([missing.status, missing.body.code]).toEqual([400, "INVALID_INPUT"])
    expect(missing.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(["Idempotency-Key", "amount", "destination", "fundingSource"])
  })
})
