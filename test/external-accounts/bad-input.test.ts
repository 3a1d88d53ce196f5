import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { evmSigner } from "@tessera/core/testing"
import { startTestServer, type RequestOptions, type TestServer } from "../support/server.ts"
import { usd, V, wallet } from "./support.ts"

interface Case {
  readonly name: string
  readonly method: string
  readonly path: (ids: { wallet: string; bank: string }) => string
  readonly options?: RequestOptions
  readonly status: number
  readonly code: string
  readonly fields?: ReadonlyArray<string>
}

const post = (name: string, body: unknown, fields?: ReadonlyArray<string>, route = "platform"): Case => ({
  name: `create: ${name}`,
  method: "POST",
  path: () => `${V}/${route}/external-accounts`,
  options: { body },
  status: 400,
  code: "INVALID_INPUT",
  ...(fields ? { fields } : {})
})
const info = (over: Record<string, unknown>) => ({ ...usd("123"), accountInfo: { ...usd("123").accountInfo, ...over } })

const cases: ReadonlyArray<Case> = [
  post("body an array", [], ["body"]),
  post("body null", null, ["body"]),
  post("no accountInfo", { currency: "USD" }, ["accountInfo"]),
  post("accountInfo a string", { currency: "USD", accountInfo: "USD_ACCOUNT" }, ["accountInfo"]),
  post("unknown accountType", { currency: "USD", accountInfo: { accountType: "CHEQUE" } }, ["accountInfo.accountType"]),
  post("accountType missing", { currency: "USD", accountInfo: { accountNumber: "1" } }, ["accountInfo.accountType"]),
  post("currency lower case", { ...usd("1"), currency: "usd" }, ["currency"]),
  post("currency missing", { accountInfo: usd("1").accountInfo }, ["currency"]),
  post("routing number letters", info({ routingNumber: "02100002A" }), ["accountInfo.routingNumber"]),
  post("account number too long", info({ accountNumber: "1".repeat(35) }), ["accountInfo.accountNumber"]),
  post("bankAccountType unknown", info({ bankAccountType: "BROKERAGE" }), ["accountInfo.bankAccountType"]),
  post("beneficiary missing", info({ beneficiary: undefined }), ["accountInfo.beneficiary"]),
  post("beneficiary type unknown", info({ beneficiary: { beneficiaryType: "ROBOT", fullName: "x" } }), ["accountInfo.beneficiary.beneficiaryType"]),
  post("business beneficiary without legalName", info({ beneficiary: { beneficiaryType: "BUSINESS" } }), ["accountInfo.beneficiary.legalName"]),
  post("beneficiary address incomplete", info({ beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "A", address: { line1: "x" } } }), ["accountInfo.beneficiary.address.postalCode", "accountInfo.beneficiary.address.country"]),
  post("ownershipType unknown", { ...wallet("ETHEREUM_WALLET", evmSigner().address), ownershipType: "SELF" }, ["ownershipType"]),
  post("EVM address short", wallet("ETHEREUM_WALLET", "0xabc"), ["accountInfo.address"]),
  post("EVM address not a string", wallet("BASE_WALLET", 42 as never), ["accountInfo.address"]),
  post("Solana address with 0", wallet("SOLANA_WALLET", "0".repeat(44)), ["accountInfo.address"]),
  post("Solana small-order key", wallet("SOLANA_WALLET", "11111111111111111111111111111111"), ["accountInfo.address"]),
  post("Tron address bad checksum", wallet("TRON_WALLET", "TWWb9EjUWai17YEVB7FR8hreupYJKG9sMZ"), ["accountInfo.address"]),
  post("Spark address bech32 (not m)", wallet("SPARK_WALLET", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"), ["accountInfo.address"]),
  post("customerId on the platform route", { ...usd("1"), customerId: "Customer:00000000-0000-4000-8000-000000000000" }, ["customerId"]),
  post("customerId malformed", { ...usd("1"), customerId: "c-1" }, ["customerId"], "customers"),
  post("customerId unknown", { ...usd("1"), customerId: "Customer:00000000-0000-4000-8000-000000000000" }, ["customerId"], "customers"),
  post("defaultUmaDepositAccount a string", { ...usd("1"), defaultUmaDepositAccount: "yes" }, ["defaultUmaDepositAccount"], "customers"),
  { name: "get: malformed id", method: "GET", path: () => `${V}/customers/external-accounts/x`, status: 404, code: "REFERENCE_NOT_FOUND" },
  { name: "delete: unknown id", method: "DELETE", path: () => `${V}/platform/external-accounts/ExternalAccount:00000000-0000-4000-8000-000000000000`, status: 404, code: "REFERENCE_NOT_FOUND" },
  { name: "list: limit 0", method: "GET", path: () => `${V}/platform/external-accounts?limit=0`, status: 400, code: "INVALID_INPUT" },
  { name: "list: bad cursor", method: "GET", path: () => `${V}/customers/external-accounts?cursor=%%%`, status: 400, code: "INVALID_INPUT" },
  { name: "challenge: method unknown", method: "POST", path: (i) => `${V}/platform/external-accounts/${i.wallet}/challenge`, options: { body: { method: "SELFIE" } }, status: 400, code: "INVALID_INPUT", fields: ["method"] },
  { name: "challenge: no body", method: "POST", path: (i) => `${V}/platform/external-accounts/${i.wallet}/challenge`, status: 400, code: "INVALID_INPUT" },
  { name: "challenge: bank account", method: "POST", path: (i) => `${V}/platform/external-accounts/${i.bank}/challenge`, options: { body: { method: "WALLET_SIGNATURE" } }, status: 409, code: "CONFLICT" },
  { name: "verify: signature missing", method: "POST", path: (i) => `${V}/platform/external-accounts/${i.wallet}/verify`, options: { body: {} }, status: 400, code: "INVALID_INPUT", fields: ["signature"] },
  { name: "verify: scheme unknown", method: "POST", path: (i) => `${V}/platform/external-accounts/${i.wallet}/verify`, options: { body: { signature: "x", signatureScheme: "bip322" } }, status: 400, code: "INVALID_INPUT", fields: ["signatureScheme"] },
  { name: "verify: no challenge outstanding", method: "POST", path: (i) => `${V}/platform/external-accounts/${i.wallet}/verify`, options: { body: { signature: "0x00" } }, status: 409, code: "CONFLICT" },
  { name: "liveness: outcome unknown", method: "POST", path: (i) => `${V}/sandbox/external-accounts/${i.wallet}/liveness`, options: { body: { outcome: "MAYBE" } }, status: 400, code: "INVALID_INPUT" },
  { name: "trust: platform-owned account", method: "POST", path: (i) => `${V}/customers/external-accounts/${i.bank}/trust`, status: 409, code: "CONFLICT" },
  { name: "trust confirm: no code", method: "POST", path: (i) => `${V}/customers/external-accounts/${i.bank}/trust/confirm`, options: { body: {} }, status: 400, code: "INVALID_INPUT" }
]

describe("external accounts: bad input never costs state and never yields a 500", () => {
  let t: TestServer
  const ids = { wallet: "", bank: "" }
  let before: string
  const state = async () => JSON.stringify([(await t.request("GET", `${V}/platform/external-accounts?limit=100`)).body, (await t.request("GET", `${V}/customers/external-accounts?limit=100`)).body])
  beforeAll(async () => {
    t = await startTestServer("memory")
    ids.wallet = (await t.request("POST", `${V}/platform/external-accounts`, { body: wallet("ETHEREUM_WALLET", evmSigner().address) })).body.id
    ids.bank = (await t.request("POST", `${V}/platform/external-accounts`, { body: usd("55501") })).body.id
    before = await state()
  })
  afterAll(() => t.close())

  it.each(cases.map((c) => [c.name, c] as const))("%s", async (_n, c) => {
    const r = await t.request(c.method, c.path(ids), c.options)
    expect(r.status, JSON.stringify(r.body)).toBe(c.status)
    expect(r.body.code).toBe(c.code)
    for (const f of c.fields ?? []) expect(r.body.details.errors.map((e: { field: string }) => e.field)).toContain(f)
    expect(await state()).toBe(before)
  })
})
