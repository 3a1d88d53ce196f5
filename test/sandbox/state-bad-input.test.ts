import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { buildWorld, content, exportState, V } from "./support.ts"

type Doc = { format: unknown; version: unknown; collections: Record<string, Array<Record<string, any>>>; [k: string]: unknown }
const uuid = "00000000-0000-4000-8000-000000000000"

/**
 * Each case: a change to a valid exported document (indices follow `buildWorld`: customers 0 the
 * wallet customer, 1 the business, 2 the deleted one; internalAccounts 0 the platform's USD
 * account) and the fields the 400 must name. A case lists every field it breaks.
 */
const cases: ReadonlyArray<readonly [string, (d: Doc) => unknown, ReadonlyArray<string>]> = [
  ["an array", () => [], ["document"]],
  ["a string", () => "tessera", ["document"]],
  ["null", () => null, ["document"]],
  ["another format", (d) => ({ ...d, format: "stripe.fixtures" }), ["format"]],
  ["no format", ({ format: _f, ...d }) => d, ["format"]],
  ["version 2", (d) => ({ ...d, version: 2 }), ["version"]],
  ["version as a string", (d) => ({ ...d, version: "1" }), ["version"]],
  ["no collections", ({ collections: _c, ...d }) => d, ["collections"]],
  ["collections an array", (d) => ({ ...d, collections: [] }), ["collections"]],
  ["an unknown top-level field", (d) => ({ ...d, extra: true }), ["extra"]],
  ["exportedAt not a date-time", (d) => ({ ...d, exportedAt: 5 }), ["exportedAt"]],
  ["an unknown collection", (d) => ((d.collections["customerz"] = []), d), ["collections.customerz"]],
  ["the server's platforms", (d) => ((d.collections["platforms"] = []), d), ["collections.platforms"]],
  ["the outbox", (d) => ((d.collections["outbox"] = []), d), ["collections.outbox"]],
  ["a collection that is not an array", (d) => ((d.collections["sessions"] = {} as never), d), ["collections.sessions"]],
  ["records that are not objects", (d) => (d.collections["processingControls"]!.push(1 as never, null as never, [] as never), d), [
    "collections.processingControls.1", "collections.processingControls.2", "collections.processingControls.3"
  ]],
  ["a record without an id", (d) => (delete d.collections["otpIssuances"]![0]!["id"], d), ["collections.otpIssuances.0.id"]],
  ["a duplicate id", (d) => (d.collections["sessions"]!.push({ ...d.collections["sessions"]![0] }), d), ["collections.sessions.1.id"]],
  ["an id of another kind", (d) => ((d.collections["externalAccounts"]![2]!["id"] = `Customer:${uuid}`), d), ["collections.externalAccounts.2.id"]],
  ["wrong field types", (d) => {
    const c = d.collections["customers"]![0]!
    Object.assign(c, { isDeleted: "no", createdAt: "yesterday", email: "not-an-email", kycStatus: "MAYBE" })
    return d
  }, ["collections.customers.0.isDeleted", "collections.customers.0.createdAt", "collections.customers.0.email", "collections.customers.0.kycStatus"]],
  ["an unknown customerType", (d) => ((d.collections["customers"]![2]!["customerType"] = "ROBOT"), d), ["collections.customers.2.customerType"]],
  ["an index key that is not a string", (d) => ((d.collections["customers"]![1]!["umaAddress"] = 5), d), ["collections.customers.1.umaAddress"]],
  ["two active customers with one platformCustomerId", (d) => {
    d.collections["customers"]![1]!["platformCustomerId"] = d.collections["customers"]![0]!["platformCustomerId"]
    return d
  }, ["collections.customers.1.platformCustomerId"]],
  ["two active customers with one UMA address (any case)", (d) => {
    d.collections["customers"]![1]!["umaAddress"] = String(d.collections["customers"]![0]!["umaAddress"]).toUpperCase()
    return d
  }, ["collections.customers.1.umaAddress"]],
  ["the same external account twice", (d) => {
    d.collections["externalAccounts"]!.push({ ...d.collections["externalAccounts"]![0], id: `ExternalAccount:${uuid}` })
    return d
  }, ["collections.externalAccounts.3.identityKey"]],
  ["an identityKey that does not match the account", (d) => ((d.collections["externalAccounts"]![0]!["identityKey"] = "x"), d), ["collections.externalAccounts.0.identityKey"]],
  ["accountInfo of no known type", (d) => ((d.collections["externalAccounts"]![1]!["accountInfo"] = { accountType: "NOPE" }), d), ["collections.externalAccounts.1.accountInfo.accountType"]],
  ["a wallet address that fails its chain's check", (d) => ((d.collections["externalAccounts"]![1]!["accountInfo"]!["address"] = "0xnope"), d), ["collections.externalAccounts.1.accountInfo.address"]],
  ["a reference to a missing customer", (d) => ((d.collections["internalAccounts"]![1]!["customerId"] = `Customer:${uuid}`), d), ["collections.internalAccounts.1.customerId"]],
  ["a credential on a missing account", (d) => ((d.collections["authMethods"]![0]!["accountId"] = `InternalAccount:${uuid}`), d), ["collections.authMethods.0.accountId"]],
  ["a session on a missing account", (d) => ((d.collections["sessions"]![0]!["accountId"] = `InternalAccount:${uuid}`), d), ["collections.sessions.0.accountId"]],
  ["an expiry no date can show", (d) => ((d.collections["sessions"]![0]!["expiresAtMs"] = 1e300), d), ["collections.sessions.0.expiresAtMs"]],
  ["a session key that is not a P-256 point's hex", (d) => ((d.collections["sessions"]![0]!["publicKey"] = "zz"), d), ["collections.sessions.0.publicKey"]],
  ["a signed request of an unknown kind", (d) => ((d.collections["signedRequests"]![0]!["kind"] = "launchRocket"), d), ["collections.signedRequests.0.kind"]],
  ["a signed request whose input its operation cannot run", (d) => ((d.collections["signedRequests"]![0]!["input"] = { credentialId: 7 }), d), [
    "collections.signedRequests.0.input.credentialId", "collections.signedRequests.0.input.tek"
  ]],
  ["a settled answer with no HTTP status", (d) => ((d.collections["signedRequests"]![0]!["settledReply"] = { status: 42, body: {} }), d), ["collections.signedRequests.0.settledReply.status"]],
  ["an OTP target key that is not hex", (d) => ((d.collections["otpIssuances"]![0]!["targetPrivateKey"] = "secret"), d), ["collections.otpIssuances.0.targetPrivateKey"]],
  ["a negative processing hold", (d) => (d.collections["processingControls"]![0]!["remaining"] = -1, d), ["collections.processingControls.0.remaining"]],
  ["problems in several collections at once", (d) => {
    d.collections["customers"]![0]!["isDeleted"] = null
    d.collections["internalAccounts"]![0]!["type"] = "PIGGY_BANK"
    d.collections["externalAccounts"]![2]!["status"] = "SLEEPING"
    d.collections["nope"] = []
    return d
  }, ["collections.nope", "collections.customers.0.isDeleted", "collections.internalAccounts.0.type", "collections.externalAccounts.2.status"]]
]

describe.each<StoreKind>(["memory", "sqlite"])("PUT /sandbox/state with a bad document (%s store)", (kind) => {
  let t: TestServer
  let valid: Doc
  let before: unknown
  beforeAll(async () => {
    t = await startTestServer(kind)
    await buildWorld(t)
    valid = await exportState(t)
    before = content(valid as never)
  })
  afterAll(() => t.close())

  it.each(cases)("%s → 400 naming every problem, nothing written", async (_name, change, fields) => {
    const r = await t.request("PUT", `${V}/sandbox/state`, { body: change(structuredClone(valid)) })
    expect(r.status).toBe(400)
    expect(r.body.code).toBe("INVALID_INPUT")
    const listed = r.body.details.errors as Array<{ field: string; message: string }>
    expect(listed.map((e) => e.field).sort()).toEqual([...fields].sort())
    for (const e of listed) expect(typeof e.message).toBe("string")
    expect(content(await exportState(t))).toEqual(before)
  })

  it("an empty body, malformed JSON and another media type are refused by the HTTP layer", async () => {
    expect((await t.request("PUT", `${V}/sandbox/state`)).body.details.errors).toEqual([{ field: "document", message: "must be a JSON object" }])
    expect((await t.request("PUT", `${V}/sandbox/state`, { raw: "{", headers: { "content-type": "application/json" } })).status).toBe(400)
    expect((await t.request("PUT", `${V}/sandbox/state`, { raw: "<state/>", headers: { "content-type": "application/xml" } })).status).toBe(415)
    expect(content(await exportState(t))).toEqual(before)
  })

  it("lists the first 1,000 problems of a document full of them and counts the rest", async () => {
    const doc = structuredClone(valid)
    doc.collections["sessions"] = Array.from({ length: 1500 }, () => 0 as never)
    const r = await t.request("PUT", `${V}/sandbox/state`, { body: doc })
    expect(r.status).toBe(400)
    expect(r.body.details.errors).toHaveLength(1000)
    expect(r.body.details.problemCount).toBe(1500)
    expect(content(await exportState(t))).toEqual(before)
  })
})
