import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Effect } from "effect"
import { InternalAccounts, Store, type InternalAccountRecord } from "@tessera/core"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { newWallet } from "../support/wallet.ts"

const V = "/2025-10-13"
const SOLANA_ADDRESS = "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU"
const EVM_ADDRESS = "0x52908400098527886E0F7030069857D2E4169EE7"

describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("POST /crypto/estimate-withdrawal-fee (%s store)", (kind) => {
  let t: TestServer
  let usdcAccount: string
  let usdAccount: string
  beforeAll(async () => {
    t = await startTestServer(kind)
    usdAccount = (await t.request("GET", `${V}/platform/internal-accounts`)).body.data[0].id
    // A USDC wallet: the customer's Global account relabelled, as an INTERNAL_CRYPTO account would be.
    const w = await newWallet(t)
    const platform = await t.engine.platform({ clientId: "test-client", clientSecret: "test-secret-0123456789" })
    await t.engine.run(
      Effect.flatMap(Store, (s) =>
        Effect.flatMap(s.get(InternalAccounts, platform.id, w.accountId), (found) => {
          const a = (found as { value: InternalAccountRecord }).value
          const usdc = { code: "USDC", name: "USD Coin", symbol: "USDC", decimals: 6 }
          return s.put(InternalAccounts, platform.id, { ...a, balance: { ...a.balance, currency: usdc }, totalBalance: { ...a.totalBalance, currency: usdc } })
        })
      )
    )
    usdcAccount = w.accountId
  })
  afterAll(async () => t.close())

  const estimate = (body: unknown) => t.request("POST", `${V}/crypto/estimate-withdrawal-fee`, { body })
  const body = (over: Record<string, unknown> = {}) => ({ internalAccountId: usdcAccount, currency: "USDC", cryptoNetwork: "SOLANA", amount: 1_000_000, destinationAddress: SOLANA_ADDRESS, ...over })

  it("answers the network fee in its asset and the total in the withdrawal currency, netAmount the rest", async () => {
    const r = await estimate(body())
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ networkFee: 5000, networkFeeAsset: "SOL", applicationFee: 0, totalFee: 750, netAmount: 999_250 })
    const eth = await estimate(body({ cryptoNetwork: "ETHEREUM", destinationAddress: EVM_ADDRESS, amount: 10_000_000 }))
    expect(eth.body).toMatchObject({ networkFeeAsset: "ETH", totalFee: 1_260_000 })
    expect(eth.body.netAmount + eth.body.totalFee).toBe(10_000_000)
  })

  it("refuses a currency the account does not hold or the network does not carry, and an amount the fee eats", async () => {
    for (const b of [body({ internalAccountId: usdAccount, currency: "USD" }), body({ internalAccountId: usdAccount }), body({ currency: "BTC", cryptoNetwork: "BITCOIN", destinationAddress: "bc1qxy" })]) {
      const r = await estimate(b)
      expect(r.status, JSON.stringify(b)).toBe(400)
      expect(r.body.code).toBe("INVALID_CURRENCY")
    }
    const tiny = await estimate(body({ amount: 750 }))
    expect(tiny.status).toBe(400)
    expect(tiny.body).toMatchObject({ code: "AMOUNT_OUT_OF_RANGE", details: { minimum: 751 } })
  })

  it("lists every invalid field at once, checks the address against the network, 404s an unknown account", async () => {
    const r = await estimate({ currency: "usdc", cryptoNetwork: "DOGE", amount: 0 })
    expect(r.status).toBe(400)
    expect(r.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(["amount", "cryptoNetwork", "currency", "destinationAddress", "internalAccountId"])
    const address = await estimate(body({ destinationAddress: EVM_ADDRESS }))
    expect(address.status).toBe(400)
    expect(address.body.details.errors.map((e: { field: string }) => e.field)).toEqual(["destinationAddress"])
    for (const id of ["InternalAccount:00000000-0000-4000-8000-000000000000", "nope"]) {
      const missing = await estimate(body({ internalAccountId: id }))
      expect(missing.status).toBe(404)
      expect(missing.body).toMatchObject({ code: "REFERENCE_NOT_FOUND", details: { resource: "InternalAccount" } })
    }
  })
})
