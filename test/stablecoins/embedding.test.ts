import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Engine, isReply, type PlatformRecord } from "@tessera/core"
import { sparkSigner } from "@tessera/core/testing"
import { ledger } from "../../packages/core/src/operations/index.ts"
import { everyStore } from "../support/stores.ts"
import { usd } from "../external-accounts/support.ts"

const body = <A>(r: unknown): A => (isReply(r) ? (r.body as A) : (r as A))
type Op = { id: string; status: string }

describe.each(everyStore("stablecoins-embed"))("stablecoins through the embedding API (%s store)", (_kind, layer) => {
  let engine: Engine
  let platform: PlatformRecord
  beforeAll(async () => {
    engine = await Engine.make({ store: layer(), clock: "virtual" })
    platform = await engine.platform({ clientId: "stablecoins-embed", clientSecret: "stablecoins-embed-secret-0123456789" })
  })
  afterAll(() => engine.dispose())

  it("links, registers, mints from the platform's USD account and burns to its bank account; the journal balances", async () => {
    const api = engine.as(platform)
    const link = body<{ id: string }>(await api.stablecoins.linkProviderAccount({ provider: "BRALE", apiClientId: "embedded", apiClientSecret: "s" }, { idempotencyKey: "link-1" }))
    expect((await api.stablecoins.listProviderAccounts({ status: "ACTIVE" })).data.map((l) => l.id)).toEqual([link.id])
    const coin = body<{ id: string; symbol: string }>(
      await api.stablecoins.register({ providerTokenIdentifier: "EMBD", networkTokenIdentifier: "btkn1qw508d6qejxtdg4y5r3zarvary0c5xw7k", network: "SPARK" }, { idempotencyKey: "reg-1" })
    )
    expect(await api.stablecoins.get(coin.id)).toMatchObject({ symbol: "EMBD", name: "Embd Dollar", stablecoinProviderAccountId: link.id })
    expect((await api.stablecoins.list({ provider: "BRALE" })).totalCount).toBe(1)

    const funding = (await api.platform.listInternalAccounts()).data.find((a) => a.balance.currency.code === "USD")!.id
    await api.sandbox.fundInternalAccount(funding, { amount: 10_000 })
    const wallet = body<{ id: string }>(
      await api.platform.createExternalAccount({
        currency: "BTC",
        ownershipType: "THIRD_PARTY",
        accountInfo: { accountType: "SPARK_WALLET", address: sparkSigner().address, beneficiary: { beneficiaryType: "BUSINESS", legalName: "Treasury" } }
      } as never)
    ).id
    const payout = body<{ id: string }>(await api.platform.createExternalAccount(usd("4400000019") as never)).id

    const mint = body<Op>(
      await api.stablecoins.createMint(coin.id, { amount: "40000000", fundingSource: { type: "GRID_INTERNAL_ACCOUNT", accountId: funding }, destination: { accountId: wallet } }, { idempotencyKey: "mint-1" })
    )
    expect(mint.status).toBe("PENDING_PROVIDER")
    expect(await engine.run(ledger.balanceOf(platform.id, funding))).toMatchObject({ available: 6_000, held: 4_000 })
    await api.sandbox.advanceClock({ seconds: 20 })
    expect(await api.stablecoins.getOperation(mint.id)).toMatchObject({ status: "COMPLETED" })
    expect(await engine.run(ledger.balanceOf(platform.id, funding))).toMatchObject({ available: 6_000, held: 0, total: 6_000 })
    expect(await engine.run(ledger.balanceOf(platform.id, `${coin.id}:reserve`))).toMatchObject({ available: 4_000 })
    expect((await engine.run(ledger.movementsOf(platform.id, mint.id))).map((m) => m.kind)).toEqual(["STABLECOIN_HOLD", "STABLECOIN_MINT"])

    const burn = body<Op>(
      await api.stablecoins.createBurn(coin.id, { amount: "15000000", source: { type: "PROVIDER_INTERNAL_BALANCE" }, destination: { type: "EXTERNAL_ACCOUNT", externalAccountId: payout, rail: "RTP_CREDIT" } }, { idempotencyKey: "burn-1" })
    )
    await api.sandbox.advanceClock({ seconds: 20 })
    expect(await api.stablecoins.getOperation(burn.id)).toMatchObject({ status: "COMPLETED" })
    expect(await engine.run(ledger.balanceOf(platform.id, `${coin.id}:reserve`))).toMatchObject({ available: 2_500, held: 0 })
    // Tokens: 40 issued, 15 redeemed; the supply account is minus what circulates.
    expect(await engine.run(ledger.balanceOf(platform.id, `${coin.id}:circulating`))).toMatchObject({ available: 25_000_000 })
    expect(await engine.run(ledger.balanceOf(platform.id, `${coin.id}:supply`))).toMatchObject({ available: -25_000_000 })
    expect((await api.stablecoins.listOperations(coin.id, { operationType: "BURN" })).data.map((o) => o.id)).toEqual([burn.id])
    expect(await api.stablecoins.getProviderAccount(link.id)).toMatchObject({ status: "ACTIVE" })

    await expect(api.stablecoins.createMint(coin.id, { amount: "1", fundingSource: { type: "WIRE" }, destination: { accountId: wallet } })).rejects.toMatchObject({
      _tag: "INVALID_INPUT",
      status: 400
    })
  })

  it("the state document carries links, stablecoins and operations, and refuses an operation of no stablecoin", async () => {
    const api = engine.as(platform)
    const doc = (await api.sandbox.exportState()) as unknown as { collections: Record<string, Array<Record<string, unknown>>> }
    const [link] = doc.collections["stablecoinProviderAccounts"]!
    const [coin] = doc.collections["stablecoins"]!
    const ops = doc.collections["stablecoinOperations"]!
    expect(ops.length).toBe(2)
    expect(JSON.stringify(doc.collections["stablecoinProviderAccounts"])).not.toContain("apiClientSecret")

    const other = await Engine.make({ store: layer(), clock: "virtual" })
    try {
      const p2 = await other.platform({ clientId: "stablecoins-embed-2", clientSecret: "stablecoins-embed-2-secret-0123456789" })
      const api2 = other.as(p2)
      await api2.sandbox.importState(doc as never).catch((e) => {
        throw new Error(JSON.stringify(e.details))
      })
      expect(await api2.stablecoins.getProviderAccount(link!["id"] as string)).toEqual(await api.stablecoins.getProviderAccount(link!["id"] as string))
      expect(await api2.stablecoins.get(coin!["id"] as string)).toEqual(await api.stablecoins.get(coin!["id"] as string))
      for (const o of ops) expect(await api2.stablecoins.getOperation(o["id"] as string)).toEqual(await api.stablecoins.getOperation(o["id"] as string))
      expect(await other.run(ledger.balanceOf(p2.id, `${coin!["id"] as string}:reserve`))).toMatchObject({ available: 2_500 })

      const broken = structuredClone(doc)
      broken.collections["stablecoinOperations"]![0]!["stablecoinId"] = "Stablecoin:00000000-0000-4000-8000-000000000000"
      broken.collections["stablecoins"]![0]!["decimals"] = 40
      const refused = await api2.sandbox.importState(broken as never).then(() => undefined, (e: { _tag: string; details: { errors: Array<{ field: string }> } }) => e)
      expect(refused?._tag).toBe("INVALID_INPUT")
      expect(refused!.details.errors.map((e) => e.field).sort()).toEqual(["collections.stablecoinOperations.0.stablecoinId", "collections.stablecoins.0.decimals"])
    } finally {
      await other.dispose()
    }
  })
})
