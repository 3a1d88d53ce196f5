import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestServer, type TestServer } from "../support/server.ts"
import { bank, link, platformUsd, post, register, spark, tokens, V } from "./support.ts"

const fields = (body: { details: { errors: Array<{ field: string }> } }) => body.details.errors.map((e) => e.field).sort()

/** Bad input to the stablecoin routes: every invalid field at once, then the rules a valid shape can still break. */
describe("stablecoin bad input", () => {
  let t: TestServer
  let coin: { id: string; symbol: string }
  let wallet: string
  let payout: string
  beforeAll(async () => {
    t = await startTestServer("memory", { clock: "virtual" })
    await link(t)
    coin = await register(t)
    wallet = await spark(t)
    payout = await bank(t)
  })
  afterAll(async () => t.close())

  it("a link lists every invalid field", async () => {
    const r = await post(t, "/stablecoin-provider-accounts", { provider: "CIRCLE", apiClientId: "", providerAccountId: 7 })
    expect([r.status, r.body.code]).toEqual([400, "INVALID_INPUT"])
    expect(fields(r.body)).toEqual(["apiClientId", "apiClientSecret", "provider", "providerAccountId"])
  })

  it("a registration lists every invalid field", async () => {
    const r = await post(t, "/stablecoins", { providerTokenIdentifier: "A-CME", networkTokenIdentifier: "0xabc", network: "ETHEREUM", stablecoinProviderAccountId: "" })
    expect(fields(r.body)).toEqual(["network", "networkTokenIdentifier", "providerTokenIdentifier", "stablecoinProviderAccountId"])
  })

  it("a mint lists every invalid field, including those of the funding source its type picked", async () => {
    const r = await post(t, `/stablecoins/${coin.id}/mints`, { amount: "1.5", fundingSource: { type: "ACH_DEBIT" }, destination: {}, description: "x".repeat(1025) })
    expect(fields(r.body)).toEqual(["amount", "description", "destination.accountId", "fundingSource.externalAccountId"])
    const zero = await post(t, `/stablecoins/${coin.id}/mints`, { amount: "0", fundingSource: { type: "CASH" }, destination: { accountId: wallet } })
    expect(fields(zero.body)).toEqual(["amount", "fundingSource.type"])
    const huge = await post(t, `/stablecoins/${coin.id}/mints`, { amount: "9007199254740993", fundingSource: { type: "WIRE" }, destination: { accountId: wallet } })
    expect(fields(huge.body)).toEqual(["amount"])
  })

  it("a burn lists every invalid field", async () => {
    const r = await post(t, `/stablecoins/${coin.id}/burns`, { amount: 5, source: { type: "GRID_INTERNAL_ACCOUNT" }, destination: { type: "EXTERNAL_ACCOUNT", rail: "SWIFT" } })
    expect(fields(r.body)).toEqual(["amount", "destination.externalAccountId", "destination.rail", "source.accountId"])
  })

  it("list filters are checked: every bad parameter at once", async () => {
    const coins = await t.request("GET", `${V}/stablecoins?issuanceStatus=DONE&provider=CIRCLE&limit=0`)
    expect(fields(coins.body)).toEqual(["issuanceStatus", "limit", "provider"])
    const links = await t.request("GET", `${V}/stablecoin-provider-accounts?status=GONE&cursor=zzz`)
    expect(fields(links.body)).toEqual(["cursor", "status"])
    const ops = await t.request("GET", `${V}/stablecoins/${coin.id}/operations?operationType=SWAP`)
    expect(fields(ops.body)).toEqual(["operationType"])
  })

  it("400 INVALID_AMOUNT when the amount is not a whole number of cents for 6 decimals", async () => {
    const r = await post(t, `/stablecoins/${coin.id}/mints`, { amount: "1000001", fundingSource: { type: "WIRE" }, destination: { accountId: wallet } })
    expect([r.status, r.body.code, r.body.details.reason]).toEqual([400, "INVALID_AMOUNT", "NOT_WHOLE_CENTS"])
  })

  it("the accounts a mint or burn names must fit their role", async () => {
    const usd = await platformUsd(t)
    const notWallet = await post(t, `/stablecoins/${coin.id}/mints`, { amount: tokens(1), fundingSource: { type: "WIRE" }, destination: { accountId: payout } })
    expect([notWallet.status, fields(notWallet.body)]).toEqual([400, ["destination.accountId"]])
    const internalDestination = await post(t, `/stablecoins/${coin.id}/mints`, { amount: tokens(1), fundingSource: { type: "WIRE" }, destination: { accountId: usd } })
    expect([internalDestination.status, fields(internalDestination.body)]).toEqual([400, ["destination.accountId"]])
    const walletFunding = await post(t, `/stablecoins/${coin.id}/mints`, { amount: tokens(1), fundingSource: { type: "ACH_DEBIT", externalAccountId: wallet }, destination: { accountId: wallet } })
    expect([walletFunding.status, fields(walletFunding.body)]).toEqual([400, ["fundingSource.externalAccountId"]])
    const walletPayout = await post(t, `/stablecoins/${coin.id}/burns`, { amount: tokens(1), source: { type: "EXTERNAL_ACCOUNT" }, destination: { type: "EXTERNAL_ACCOUNT", externalAccountId: wallet, rail: "WIRE" } })
    expect([walletPayout.status, fields(walletPayout.body)]).toEqual([400, ["destination.externalAccountId"]])
    const internalSource = await post(t, `/stablecoins/${coin.id}/burns`, { amount: tokens(1), source: { type: "GRID_INTERNAL_ACCOUNT", accountId: usd }, destination: { type: "EXTERNAL_ACCOUNT", externalAccountId: payout, rail: "WIRE" } })
    expect([internalSource.status, fields(internalSource.body)]).toEqual([400, ["source.accountId"]])
    const unknown = await post(t, `/stablecoins/${coin.id}/mints`, { amount: tokens(1), fundingSource: { type: "WIRE" }, destination: { accountId: "ExternalAccount:00000000-0000-4000-8000-000000000009" } })
    expect([unknown.status, unknown.body.code, unknown.body.details.resource]).toEqual([404, "REFERENCE_NOT_FOUND", "ExternalAccount"])
  })

  it("400 INVALID_CURRENCY when a mint's internal funding account is not in the stablecoin's base currency", async () => {
    const c = await t.request("POST", `${V}/customers`, { body: { customerType: "INDIVIDUAL", fullName: "Holder", platformCustomerId: "sc-holder" } })
    const accounts = (await t.request("GET", `${V}/customers/internal-accounts?customerId=${encodeURIComponent(c.body.id)}`)).body.data as Array<{ id: string; balance: { currency: { code: string } } }>
    const other = accounts.find((a) => a.balance.currency.code !== "USD")
    expect(other).toBeDefined()
    const r = await post(t, `/stablecoins/${coin.id}/mints`, { amount: tokens(1), fundingSource: { type: "GRID_INTERNAL_ACCOUNT", accountId: other!.id }, destination: { accountId: wallet } })
    expect([r.status, r.body.code]).toEqual([400, "INVALID_CURRENCY"])
  })
})
