import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { evmSigner } from "@tessera/core/testing"
import { startWebhookWorker } from "@tessera/adapter-http"
import { CLIENT_ID, CLIENT_SECRET, startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { startReceiver } from "../webhooks/receiver.ts"

const V = "/2025-10-13"

const events = async (t: TestServer, type: string) =>
  (await t.request("GET", `${V}/sandbox/events?type=${type}&limit=100`)).body.data as Array<any>

describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("platform configuration over HTTP (%s store)", (kind) => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer(kind)
  })
  afterAll(async () => t.close())

  it("GET /config: the sandbox defaults, with an id of the platform's own", async () => {
    const r = await t.request("GET", `${V}/config`)
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({
      umaDomain: "sandbox.tessera.local",
      isRegulatedFinancialInstitution: false,
      supportedCurrencies: [{ currencyCode: "USD", enabledTransactionTypes: ["OUTGOING", "INCOMING"], requiredCounterpartyFields: [] }],
      feeConfigs: [],
      counterpartyRequirements: true
    })
    expect(r.body.id).toMatch(/^PlatformConfig:[0-9a-f-]{36}$/)
    expect(r.body.webhookEndpoint).toBeUndefined()
  })

  it("PATCH /config changes only what it names; nested configurations merge, fee configs merge by key", async () => {
    const first = await t.request("PATCH", `${V}/config`, {
      body: {
        embeddedWalletConfig: { appName: "Acme Wallet", otpLength: 8 },
        cardTokenization2faConfig: { displayName: "Acme", email: { fromAddress: "cards@acme.com", subject: "Your code" } },
        feeConfigs: [{ feeType: "CROSS_CURRENCY_TRANSACTION", sourceCurrency: "USD", variableFeeBps: 25, fixedFee: { amount: 10, currency: "USD" } }],
        supportedCurrencies: [
          { currencyCode: "USD", minAmount: 100, maxAmount: 1_000_000, requiredCounterpartyFields: [{ name: "FULL_NAME", mandatory: true }], enabledTransactionTypes: ["OUTGOING"] },
          { currencyCode: "EUR", minAmount: 0, maxAmount: 500, requiredCounterpartyFields: [], enabledTransactionTypes: ["INCOMING", "OUTGOING"] }
        ]
      }
    })
    expect(first.status).toBe(200)
    const second = await t.request("PATCH", `${V}/config`, {
      body: { embeddedWalletConfig: { sendFromEmailSenderName: "Acme" }, cardTokenization2faConfig: { email: { fromName: "Acme Cards" } } }
    })
    expect(second.body.embeddedWalletConfig).toEqual({ appName: "Acme Wallet", otpLength: 8, sendFromEmailSenderName: "Acme" })
    expect(second.body.cardTokenization2faConfig).toEqual({ displayName: "Acme", email: { fromAddress: "cards@acme.com", subject: "Your code", fromName: "Acme Cards" } })
    expect(second.body.supportedCurrencies.map((c: any) => c.currencyCode)).toEqual(["USD", "EUR"])
    expect(second.body.feeConfigs).toEqual([{ feeType: "CROSS_CURRENCY_TRANSACTION", sourceCurrency: "USD", variableFeeBps: 25, fixedFee: { amount: 10, currency: "USD" } }])
    expect(Date.parse(second.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(first.body.updatedAt))
    // A fee config with no fee at all deactivates its key.
    const third = await t.request("PATCH", `${V}/config`, {
      body: { feeConfigs: [{ feeType: "CROSS_CURRENCY_TRANSACTION", sourceCurrency: "USD", variableFeeBps: 0, fixedFee: { amount: 0, currency: "USD" } }] }
    })
    expect(third.body.feeConfigs).toEqual([])
    expect((await t.request("GET", `${V}/config`)).body).toEqual(third.body)
  })

  it("a new umaDomain names the UMA addresses of customers created after it", async () => {
    await t.request("PATCH", `${V}/config`, { body: { umaDomain: "Pay.Example.COM" } })
    const c = await t.request("POST", `${V}/customers`, { body: { customerType: "INDIVIDUAL", fullName: "Dee Domain" } })
    expect(c.body.umaAddress).toMatch(/@pay\.example\.com$/)
    expect((await t.request("GET", `${V}/config`)).body.umaDomain).toBe("pay.example.com")
  })

  it("counterpartyRequirements off: a self-custody wallet needs no ownershipType and starts ACTIVE", async () => {
    const wallet = { currency: "USDC", accountInfo: { accountType: "ETHEREUM_WALLET", address: evmSigner().address } }
    const refused = await t.request("POST", `${V}/platform/external-accounts`, { body: wallet })
    expect(refused.status).toBe(400)
    await t.request("PATCH", `${V}/config`, { body: { counterpartyRequirements: false } })
    const created = await t.request("POST", `${V}/platform/external-accounts`, { body: wallet })
    expect(created.status).toBe(201)
    expect(created.body.status).toBe("ACTIVE")
    await t.request("PATCH", `${V}/config`, { body: { counterpartyRequirements: true } })
  })

  it("400 lists every invalid field, the read-only one included, and changes nothing", async () => {
    const before = (await t.request("GET", `${V}/config`)).body
    const r = await t.request("PATCH", `${V}/config`, {
      body: {
        umaDomain: "not a domain",
        webhookEndpoint: "ftp://example.com/hooks",
        supportedCurrencies: [{ currencyCode: "USD", minAmount: 500, maxAmount: 100, requiredCounterpartyFields: [{ name: "SHOE_SIZE", mandatory: true }], enabledTransactionTypes: ["OUTGOING"] }],
        embeddedWalletConfig: { otpLength: 3 },
        feeConfigs: [{ feeType: "CROSS_CURRENCY_TRANSACTION", sourceCurrency: "EUR", variableFeeBps: 10, fixedFee: { amount: 0, currency: "USD" } }],
        isRegulatedFinancialInstitution: true
      }
    })
    expect(r.status).toBe(400)
    expect(r.body.code).toBe("INVALID_INPUT")
    const fields = r.body.details.errors.map((e: any) => e.field)
    expect(fields).toEqual(
      expect.arrayContaining([
        "umaDomain",
        "webhookEndpoint",
        "supportedCurrencies.0.requiredCounterpartyFields.0.name",
        "embeddedWalletConfig.otpLength",
        "feeConfigs.0.sourceCurrency",
        "isRegulatedFinancialInstitution"
      ])
    )
    expect((await t.request("GET", `${V}/config`)).body).toEqual(before)
    const notObject = await t.request("PATCH", `${V}/config`, { body: ["umaDomain"] })
    expect(notObject.body.details.errors).toEqual([{ field: "body", message: "must be a JSON object" }])
    const range = await t.request("PATCH", `${V}/config`, {
      body: {
        supportedCurrencies: [
          { currencyCode: "USD", minAmount: 500, maxAmount: 100, requiredCounterpartyFields: [], enabledTransactionTypes: [] },
          { currencyCode: "XQQ", minAmount: 0, maxAmount: 100, requiredCounterpartyFields: [], enabledTransactionTypes: [] }
        ]
      }
    })
    expect(range.body.details.errors.map((e: any) => e.field)).toEqual(["supportedCurrencies.0.maxAmount", "supportedCurrencies.1.currencyCode"])
  })

  it("a webhookEndpoint set at run time gets a TEST event at once, then the platform's webhooks", async () => {
    const receiver = await startReceiver()
    const worker = startWebhookWorker(t.engine, { intervalMs: 60_000 })
    try {
      const r = await t.request("PATCH", `${V}/config`, { body: { webhookEndpoint: receiver.url } })
      expect(r.status).toBe(200)
      expect(r.body.webhookEndpoint).toBe(receiver.url)
      expect(receiver.received.map((x) => x.event.type)).toEqual(["TEST"])
      const [test] = await events(t, "TEST")
      expect(test.delivery.deliveredAt).toBeTypeOf("string")
      // The same URL again sends nothing new.
      await t.request("PATCH", `${V}/config`, { body: { webhookEndpoint: receiver.url } })
      expect(receiver.received).toHaveLength(1)
      // An event published now is delivered to it by the worker's next pass.
      const s = evmSigner()
      const acct = await t.request("POST", `${V}/platform/external-accounts`, {
        body: { currency: "USDC", ownershipType: "FIRST_PARTY", accountInfo: { accountType: "ETHEREUM_WALLET", address: s.address } }
      })
      const ch = await t.request("POST", `${V}/platform/external-accounts/${acct.body.id}/challenge`, { body: { method: "WALLET_SIGNATURE" } })
      await t.request("POST", `${V}/platform/external-accounts/${acct.body.id}/verify`, { body: { signature: s.sign(ch.body.messageToSign) } })
      await worker.tick()
      expect(receiver.received.slice(1).map((x) => [x.event.type, x.event.data.id])).toEqual([["EXTERNAL_ACCOUNT.STATUS_UPDATED", acct.body.id]])
      expect((await t.request("POST", `${V}/sandbox/webhooks/test`)).body.url).toBe(receiver.url)
    } finally {
      await worker.stop()
      await receiver.close()
    }
  })

  it("a TEST the new URL refuses leaves the URL set; the event log shows the refused attempt", async () => {
    const receiver = await startReceiver((e) => (e.type === "TEST" ? 503 : 200))
    try {
      const r = await t.request("PATCH", `${V}/config`, { body: { webhookEndpoint: receiver.url.replace("/hooks", "/refusing") } })
      expect(r.status).toBe(200)
      const tests = await events(t, "TEST")
      const last = tests[tests.length - 1]
      expect(last.delivery.abandonedAt).toBeTypeOf("string")
      expect(last.delivery.attempts).toEqual([expect.objectContaining({ status: 503 })])
      expect((await t.request("GET", `${V}/config`)).body.webhookEndpoint).toBe(receiver.url.replace("/hooks", "/refusing"))
    } finally {
      await receiver.close()
    }
  })

  it("through the embedding API, a record obtained before the change sees the new configuration", async () => {
    const platform = await t.engine.platform({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET })
    const updated = await t.engine.as(platform).platform.updateConfig({ umaDomain: "embedded.example.org" })
    expect(updated.umaDomain).toBe("embedded.example.org")
    expect((await t.engine.as(platform).platform.getConfig()).umaDomain).toBe("embedded.example.org")
    await expect(t.engine.as(platform).platform.updateConfig({ umaDomain: "x" })).rejects.toMatchObject({ _tag: "INVALID_INPUT" })
  })
})
