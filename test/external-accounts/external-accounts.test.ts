import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { individual, startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { newCustomer, usd, V, wallet } from "./support.ts"
import { scaLogin } from "../sca/support.ts"

describe.each<StoreKind>(["memory", "sqlite"])("external accounts over HTTP (%s store)", (kind) => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer(kind)
  })
  afterAll(() => t.close())

  it("creates a USD account for a customer: ACTIVE, name MATCHED, rails filled in; get, list and delete it", async () => {
    const customerId = await newCustomer(t)
    const r = await t.request("POST", `${V}/customers/external-accounts`, { body: { ...usd("555000111"), customerId } })
    expect(r.status).toBe(201)
    expect(r.body).toMatchObject({ customerId, status: "ACTIVE", currency: "USD", beneficiaryVerificationStatus: "MATCHED", beneficiaryVerifiedData: { fullName: "Jane Smith" } })
    expect(r.body.id).toMatch(/^ExternalAccount:/)
    expect(r.body.accountInfo.paymentRails.length).toBeGreaterThan(0)
    expect((await t.request("GET", `${V}/customers/external-accounts/${r.body.id}`)).body).toEqual(r.body)
    const list = await t.request("GET", `${V}/customers/external-accounts?customerId=${customerId}`)
    expect(list.body.data.map((a: { id: string }) => a.id)).toEqual([r.body.id])
    // Not on the platform route: that one shows the platform's own accounts.
    expect((await t.request("GET", `${V}/platform/external-accounts/${r.body.id}`)).status).toBe(404)
    expect((await t.request("DELETE", `${V}/customers/external-accounts/${r.body.id}`)).status).toBe(204)
    expect((await t.request("GET", `${V}/customers/external-accounts/${r.body.id}`)).status).toBe(404)
  })

  it.each([
    ["102", "NOT_MATCHED", "ACTIVE"],
    ["103", "PARTIAL_MATCH", "ACTIVE"],
    ["104", "PENDING", "PENDING"],
    ["106", "UNSUPPORTED", "ACTIVE"],
    ["107", "CHECKED_BY_RECEIVING_FI", "ACTIVE"],
    ["999", "MATCHED", "ACTIVE"]
  ])("identifier suffix %s → beneficiary check %s, status %s", async (suffix, check, status) => {
    const r = await t.request("POST", `${V}/platform/external-accounts`, { body: usd(`440000${suffix}`) })
    expect(r.status).toBe(201)
    expect(r.body).toMatchObject({ beneficiaryVerificationStatus: check, status })
  })

  it("identifier suffix 105 is an invalid account: 400, nothing created", async () => {
    const before = (await t.request("GET", `${V}/platform/external-accounts`)).body.totalCount
    const r = await t.request("POST", `${V}/platform/external-accounts`, { body: usd("7700105") })
    expect(r.status).toBe(400)
    expect(r.body.code).toBe("INVALID_BANK_ACCOUNT")
    expect((await t.request("GET", `${V}/platform/external-accounts`)).body.totalCount).toBe(before)
  })

  it("lists every invalid field at once, across the body and accountInfo", async () => {
    const r = await t.request("POST", `${V}/customers/external-accounts`, {
      body: { currency: "usd", customerId: "nope", accountInfo: { accountType: "USD_ACCOUNT", accountNumber: "", routingNumber: "12", beneficiary: { beneficiaryType: "INDIVIDUAL" } } }
    })
    expect(r.status).toBe(400)
    expect(r.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(
      ["accountInfo.accountNumber", "accountInfo.beneficiary.fullName", "accountInfo.routingNumber", "currency", "customerId"].sort()
    )
  })

  it("checks wallet addresses per chain", async () => {
    for (const [type, address] of [
      ["ETHEREUM_WALLET", "0x1234"],
      ["ETHEREUM_WALLET", "0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266"],
      ["SOLANA_WALLET", "0OIl"],
      ["TRON_WALLET", "TWWb9EjUWai17YEVB7FR8hreupYJKG9sMX"],
      ["SPARK_WALLET", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"]
    ]) {
      const r = await t.request("POST", `${V}/platform/external-accounts`, { body: wallet(type!, address!) })
      expect(r.status, `${type} ${address}`).toBe(400)
      expect(r.body.details.errors[0].field).toBe("accountInfo.address")
    }
  })

  it("DECISIONS #11: FIRST_PARTY self-custody wallets start PENDING_OWNERSHIP_VERIFICATION; custodial and third-party ones ACTIVE", async () => {
    const a = "0x" + "ab".repeat(20)
    const first = await t.request("POST", `${V}/platform/external-accounts`, { body: wallet("BASE_WALLET", a) })
    expect(first.body.status).toBe("PENDING_OWNERSHIP_VERIFICATION")
    const custodial = await t.request("POST", `${V}/platform/external-accounts`, { body: wallet("POLYGON_WALLET", a, { accountInfo: { accountType: "POLYGON_WALLET", address: a, vaspName: "Kraken" } }) })
    expect(custodial.body.status).toBe("ACTIVE")
    const third = await t.request("POST", `${V}/platform/external-accounts`, { body: wallet("PLASMA_WALLET", a, { ownershipType: "THIRD_PARTY" }) })
    expect(third.status).toBe(400)
    expect(third.body.details.errors[0].field).toBe("accountInfo.beneficiary")
    const noType = await t.request("POST", `${V}/platform/external-accounts`, { body: { currency: "USDC", accountInfo: { accountType: "ETHEREUM_WALLET", address: "0x" + "cd".repeat(20) } } })
    expect(noType.body.details.errors[0].field).toBe("ownershipType")
  })

  it("LIGHTNING and LIGHTNING_ACCOUNT are one variant with exactly one destination", async () => {
    const ok = await t.request("POST", `${V}/platform/external-accounts`, { body: { currency: "BTC", accountInfo: { accountType: "LIGHTNING_ACCOUNT", lightningAddress: "alice@example.com" } } })
    expect(ok.status).toBe(201)
    expect(ok.body.accountInfo.accountType).toBe("LIGHTNING")
    const two = await t.request("POST", `${V}/platform/external-accounts`, { body: { currency: "BTC", accountInfo: { accountType: "LIGHTNING", lightningAddress: "b@example.com", bolt12: "lno1x" } } })
    expect(two.status).toBe(400)
  })

  it("409 for the same account twice; one default UMA deposit account per customer", async () => {
    const customerId = await newCustomer(t)
    const a = await t.request("POST", `${V}/customers/external-accounts`, { body: { ...usd("111222333"), customerId, defaultUmaDepositAccount: true } })
    expect((await t.request("POST", `${V}/customers/external-accounts`, { body: { ...usd("111222333"), customerId } })).status).toBe(409)
    const b = await t.request("POST", `${V}/customers/external-accounts`, { body: { ...usd("111222334"), customerId, defaultUmaDepositAccount: true } })
    expect(b.body.defaultUmaDepositAccount).toBe(true)
    expect((await t.request("GET", `${V}/customers/external-accounts/${a.body.id}`)).body.defaultUmaDepositAccount).toBe(false)
    const platformDefault = await t.request("POST", `${V}/platform/external-accounts`, { body: { ...usd("99911"), defaultUmaDepositAccount: true } })
    expect(platformDefault.status).toBe(400)
  })

  it("a trusted beneficiary cannot be deleted (409 BENEFICIARY_TRUSTED) until untrusted with SCA", async () => {
    const eu = (await t.request("POST", `${V}/customers`, { body: individual({ email: undefined, nationality: "DE", platformCustomerId: undefined }) })).body.id
    const acct = (await t.request("POST", `${V}/customers/external-accounts`, { body: { ...usd("31415926"), customerId: eu } })).body.id
    // Trust changes need the customer's SCA session (DECISIONS #226).
    const noSession = await t.request("POST", `${V}/customers/external-accounts/${acct}/trust`)
    expect([noSession.status, noSession.body.code]).toEqual([409, "SCA_SESSION_REQUIRED"])
    await scaLogin(t, eu)
    const start = await t.request("POST", `${V}/customers/external-accounts/${acct}/trust`)
    expect(start.status).toBe(200)
    expect(start.body.scaChallenge.factor).toBe("SMS_OTP")
    const wrong = await t.request("POST", `${V}/customers/external-accounts/${acct}/trust/confirm`, { body: { code: "000000", challengeId: start.body.scaChallenge.id } })
    expect([wrong.status, wrong.body.details.reason]).toEqual([400, "SCA_PROOF_INVALID"])
    const ok = await t.request("POST", `${V}/customers/external-accounts/${acct}/trust/confirm`, { body: { code: "123456", challengeId: start.body.scaChallenge.id } })
    expect(ok.body).toEqual({ trusted: true })
    const refused = await t.request("DELETE", `${V}/customers/external-accounts/${acct}`)
    expect(refused.status).toBe(409)
    expect(refused.body.code).toBe("BENEFICIARY_TRUSTED")
    await t.request("POST", `${V}/customers/external-accounts/${acct}/untrust`)
    expect((await t.request("POST", `${V}/customers/external-accounts/${acct}/untrust/confirm`, { body: { code: "123456" } })).body).toEqual({ trusted: false })
    expect((await t.request("DELETE", `${V}/customers/external-accounts/${acct}`)).status).toBe(204)
    // Outside SCA regions the trust flow does not apply.
    const us = await newCustomer(t)
    const usAcct = (await t.request("POST", `${V}/customers/external-accounts`, { body: { ...usd("27182818"), customerId: us } })).body.id
    expect((await t.request("POST", `${V}/customers/external-accounts/${usAcct}/trust`)).status).toBe(409)
  })
})
