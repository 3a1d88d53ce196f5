import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Engine } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { findLookup } from "../../packages/core/src/operations/receivers/lookups.ts"
import { individual, startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { newWallet } from "../support/wallet.ts"
import { asPlatform, exportState } from "../sandbox/support.ts"
import { usd } from "../external-accounts/support.ts"

const V = "/2025-10-13"
const SANDBOX = "sandbox.uma.money"

describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("receiver lookups over HTTP (%s store)", (kind) => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer(kind)
  })
  afterAll(async () => t.close())

  const lookup = (address: string, query = "") => t.request("GET", `${V}/receiver/uma/${encodeURIComponent(address)}${query}`)

  it("resolves each sandbox receiver in its currency, with a lookupId and an estimated rate", async () => {
    for (const [local, code] of [["success.usd", "USD"], ["success.eur", "EUR"], ["success.mxn", "MXN"], ["pending.long.usd", "USD"], ["fail.compliance.usd", "USD"]] as const) {
      const r = await lookup(`$${local}@${SANDBOX}`)
      expect(r.status, local).toBe(200)
      expect(r.body.receiverUmaAddress).toBe(`$${local}@${SANDBOX}`)
      expect(r.body.lookupId).toMatch(/^Lookup:[0-9a-f-]{36}$/)
      expect(r.body.supportedCurrencies).toHaveLength(1)
      expect(r.body.supportedCurrencies[0]).toMatchObject({ currency: { code } })
      expect(r.body.supportedCurrencies[0].min).toBeGreaterThan(0)
      expect(r.body.supportedCurrencies[0].max).toBeGreaterThan(r.body.supportedCurrencies[0].min)
    }
    // The examples' domain and a different case resolve the same receivers; the path may be left unencoded.
    expect((await lookup("$Success.EUR@sandbox.grid.uma.money")).status).toBe(200)
    expect((await t.request("GET", `${V}/receiver/uma/$success.usd@${SANDBOX}`)).status).toBe(200)
    const eur = await lookup(`$success.eur@${SANDBOX}`)
    expect(eur.body.supportedCurrencies[0].estimatedExchangeRate).toBeGreaterThan(1)
  })

  it("answers 404 UMA_NOT_FOUND for a well-formed unknown address, 400 INVALID_UMA_ADDRESS for a malformed one", async () => {
    for (const address of [`$non.existent.usd@${SANDBOX}`, "$someone@elsewhere.example"]) {
      const r = await lookup(address)
      expect(r.status, address).toBe(404)
      expect(r.body.code).toBe("UMA_NOT_FOUND")
    }
    for (const address of ["success.usd@sandbox.uma.money", "$nodomain", "$a@b", "plain"]) {
      const r = await lookup(address)
      expect(r.status, address).toBe(400)
      expect(r.body.code).toBe("INVALID_UMA_ADDRESS")
    }
  })

  it("resolves a customer of the platform by its UMA address, in its accounts' currencies, and no other platform's", async () => {
    await t.request("POST", `${V}/customers`, { body: individual({ email: undefined, platformCustomerId: undefined, umaAddress: `$bob.${kind}@tessera.example` }) })
    const r = await lookup(`$BOB.${kind}@tessera.example`)
    expect(r.status).toBe(200)
    expect(r.body.supportedCurrencies.map((s: { currency: { code: string } }) => s.currency.code)).toEqual(["USDB"])
    const other = await asPlatform(t, `lookup-other-${kind}`)
    expect((await other.request("GET", `${V}/receiver/uma/${encodeURIComponent(`$bob.${kind}@tessera.example`)}`)).status).toBe(404)
  })

  it("takes the sender's currency from customerId, and 404 USER_NOT_FOUND / 400 for a bad sender", async () => {
    const w = await newWallet(t)
    const r = await lookup(`$success.usd@${SANDBOX}`, `?customerId=${encodeURIComponent(w.customerId)}`)
    expect(r.status).toBe(200)
    // USDB to USD: pegged, exactly 1.
    expect(r.body.supportedCurrencies[0].estimatedExchangeRate).toBe(1)
    const unknown = await lookup(`$success.usd@${SANDBOX}`, "?customerId=Customer:00000000-0000-4000-8000-000000000000")
    expect(unknown.status).toBe(404)
    expect(unknown.body.code).toBe("USER_NOT_FOUND")
    const bad = await lookup(`$success.usd@${SANDBOX}`, "?senderUmaAddress=nope&customerId=nope")
    expect(bad.status).toBe(400)
    expect(bad.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(["customerId", "senderUmaAddress"])
  })

  it("looks up an external account of the platform, 404 REFERENCE_NOT_FOUND otherwise", async () => {
    const w = await newWallet(t)
    const bank = await t.request("POST", `${V}/customers/external-accounts`, { body: { ...usd("555000199"), customerId: w.customerId } })
    expect(bank.status).toBe(201)
    const r = await t.request("GET", `${V}/receiver/external-account/${bank.body.id}`)
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ accountId: bank.body.id, supportedCurrencies: [{ currency: { code: "USD" }, estimatedExchangeRate: 1 }] })
    expect(r.body.lookupId).toMatch(/^Lookup:/)
    for (const id of ["ExternalAccount:00000000-0000-4000-8000-000000000000", "nope"]) {
      const missing = await t.request("GET", `${V}/receiver/external-account/${id}`)
      expect(missing.status).toBe(404)
      expect(missing.body).toMatchObject({ code: "REFERENCE_NOT_FOUND", details: { resource: "ExternalAccount" } })
    }
  })

  it("keeps lookups in the platform's state: exported, imported, cleared by reset", async () => {
    const p = await asPlatform(t, `lookup-state-${kind}`)
    const r = await p.request("GET", `${V}/receiver/uma/${encodeURIComponent(`$success.mxn@${SANDBOX}`)}`)
    const doc = await exportState(p)
    expect(doc.collections.receiverLookups.map((l: { id: string }) => l.id)).toEqual([r.body.lookupId])
    expect(doc.collections.receiverLookups[0]).toMatchObject({ receiver: { type: "SANDBOX_UMA", currency: "MXN", outcome: "SUCCESS" } })
    await p.request("POST", `${V}/sandbox/reset`)
    expect((await exportState(p)).collections.receiverLookups).toEqual([])
    expect((await p.request("PUT", `${V}/sandbox/state`, { body: doc })).status).toBe(200)
    expect((await exportState(p)).collections.receiverLookups).toEqual(doc.collections.receiverLookups)
  })
})

describe("findLookup, for quotes", () => {
  let engine: Engine
  beforeAll(async () => {
    engine = await Engine.make({ store: MemoryStore.layer, clock: "virtual" })
  })
  afterAll(() => engine.dispose())

  it("answers the stored lookup to its platform, 404 LOOKUP_REQUEST_NOT_FOUND to any other", async () => {
    const mine = await engine.platform({ clientId: "lk", clientSecret: "lk-secret-0123456789" })
    const theirs = await engine.platform({ clientId: "lk2", clientSecret: "lk2-secret-0123456789" })
    const api = engine.as(mine)
    const answer = (await api.receivers.lookupUma("$pending.long.usd@sandbox.uma.money")) as { lookupId: string }
    const record = await engine.run(findLookup(mine.id, answer.lookupId))
    expect(record).toMatchObject({ receiverUmaAddress: "$pending.long.usd@sandbox.uma.money", receiver: { type: "SANDBOX_UMA", outcome: "PENDING_LONG", currency: "USD" }, sendingCurrency: "USD" })
    await expect(engine.run(findLookup(theirs.id, answer.lookupId))).rejects.toMatchObject({ _tag: "LOOKUP_REQUEST_NOT_FOUND", status: 404 })
  })
})
