import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { business, individual, startTestServer, type RequestOptions, type TestServer } from "../support/server.ts"

const V = "/2025-10-13"

interface Case {
  readonly name: string
  readonly method: string
  readonly path: string
  readonly options?: RequestOptions
  readonly status: number
  readonly code: string
  /** Fields that must appear in details.errors. */
  readonly fields?: ReadonlyArray<string>
}

const post = (name: string, body: unknown, fields?: ReadonlyArray<string>): Case => ({
  name,
  method: "POST",
  path: `${V}/customers`,
  options: { body },
  status: 400,
  code: "INVALID_INPUT",
  ...(fields ? { fields } : {})
})

const raw = (name: string, raw: string | Uint8Array, status = 400, code = "INVALID_INPUT", contentType = "application/json"): Case => ({
  name,
  method: "POST",
  path: `${V}/customers`,
  options: { raw, headers: { "content-type": contentType } },
  status,
  code
})

const bodyCases: ReadonlyArray<Case> = [
  post("no customerType", { fullName: "A" }, ["customerType"]),
  post("unknown customerType", { customerType: "ROBOT" }, ["customerType"]),
  post("customerType lower case", { customerType: "individual" }, ["customerType"]),
  post("customerType number", { customerType: 1 }, ["customerType"]),
  post("customerType null", { customerType: null }, ["customerType"]),
  post("body is an array", [individual()], ["body"]),
  post("body is a string", "INDIVIDUAL", ["body"]),
  post("body is a number", 42, ["body"]),
  post("body is null", null, ["body"]),
  post("body is true", true, ["body"]),
  post("fullName empty", individual({ fullName: "" }), ["fullName"]),
  post("fullName number", individual({ fullName: 7 }), ["fullName"]),
  post("fullName too long", individual({ fullName: "x".repeat(251) }), ["fullName"]),
  post("fullName object", individual({ fullName: { first: "a" } }), ["fullName"]),
  post("email without at", individual({ email: "jane.example.com" }), ["email"]),
  post("email with spaces", individual({ email: "jane @example.com" }), ["email"]),
  post("email number", individual({ email: 5 }), ["email"]),
  post("email too long", individual({ email: "a".repeat(250) + "@b.co" }), ["email"]),
  post("phone not E.164", individual({ phoneNumber: "4155551234" }), ["phoneNumber"]),
  post("phone with letters", individual({ phoneNumber: "+1415CALLME" }), ["phoneNumber"]),
  post("phone leading zero", individual({ phoneNumber: "+0155551234" }), ["phoneNumber"]),
  post("birthDate impossible", individual({ birthDate: "2023-02-30" }), ["birthDate"]),
  post("birthDate wrong format", individual({ birthDate: "15/01/1990" }), ["birthDate"]),
  post("birthDate month 13", individual({ birthDate: "1990-13-01" }), ["birthDate"]),
  post("birthDate number", individual({ birthDate: 19900115 }), ["birthDate"]),
  post("nationality three letters", individual({ nationality: "USA" }), ["nationality"]),
  post("nationality lower case", individual({ nationality: "us" }), ["nationality"]),
  post("region bad", individual({ region: "U1" }), ["region"]),
  post("currencies not an array", individual({ currencies: "USD" }), ["currencies"]),
  post("currencies with a bad code", individual({ currencies: ["USD", "us dollar"] }), ["currencies.1"]),
  post("currencies too many", individual({ currencies: Array.from({ length: 21 }, () => "USD") }), ["currencies"]),
  post("address missing line1", individual({ address: { postalCode: "1", country: "US" } }), ["address.line1"]),
  post("address missing postalCode and country", individual({ address: { line1: "x" } }), ["address.postalCode", "address.country"]),
  post("address not an object", individual({ address: "1 Main St" }), ["address"]),
  post("address bad country", individual({ address: { line1: "x", postalCode: "1", country: "United States" } }), ["address.country"]),
  post("idType unknown", individual({ idType: "PASSPORT" }), ["idType"]),
  post("identifier wrong format", individual({ idType: "SSN", identifier: "123456789" }), ["identifier"]),
  post("countryOfIssuance not US", individual({ countryOfIssuance: "MX" }), ["countryOfIssuance"]),
  post("umaAddress without $", individual({ umaAddress: "alice@example.com" }), ["umaAddress"]),
  post("umaAddress without domain", individual({ umaAddress: "$alice" }), ["umaAddress"]),
  post("platformCustomerId empty", individual({ platformCustomerId: "" }), ["platformCustomerId"]),
  post("platformCustomerId number", individual({ platformCustomerId: 12 }), ["platformCustomerId"]),
  post("platformCustomerId too long", individual({ platformCustomerId: "p".repeat(129) }), ["platformCustomerId"]),
  post("endUserTermsConsent incomplete", individual({ endUserTermsConsent: { termsVersion: "V1" } }), [
    "endUserTermsConsent.acceptedAt",
    "endUserTermsConsent.ipAddress",
    "endUserTermsConsent.acceptanceMethod"
  ]),
  post("endUserTermsConsent bad date", individual({ endUserTermsConsent: { termsVersion: "V1", acceptedAt: "yesterday", ipAddress: "1.2.3.4", acceptanceMethod: "CHECKBOX" } }), ["endUserTermsConsent.acceptedAt"]),
  post("many invalid fields at once", individual({ fullName: "", email: "x", birthDate: "nope", nationality: "usa", phoneNumber: "1" }), [
    "fullName",
    "email",
    "birthDate",
    "nationality",
    "phoneNumber"
  ]),
  post("business without businessInfo", { customerType: "BUSINESS" }, ["businessInfo"]),
  post("business info missing fields", business({ businessInfo: { legalName: "A" } }), ["businessInfo.country", "businessInfo.taxId", "businessInfo.incorporatedOn"]),
  post("business info bad date", business({ businessInfo: { ...business().businessInfo, incorporatedOn: "2018-02-31" } }), ["businessInfo.incorporatedOn"]),
  post("business entityType unknown", business({ businessInfo: { ...business().businessInfo, entityType: "GUILD" } }), ["businessInfo.entityType"]),
  post("business info an array", business({ businessInfo: [] }), ["businessInfo"]),
  post("unknown customerType still reports other fields", { customerType: "X", email: "bad" }, ["customerType", "email"]),
  {
    name: "unsupported End User Terms version",
    method: "POST",
    path: `${V}/customers`,
    options: { body: individual({ endUserTermsConsent: { termsVersion: "V99", acceptedAt: "2025-01-01T00:00:00Z", ipAddress: "1.2.3.4", acceptanceMethod: "CHECKBOX" } }) },
    status: 400,
    code: "END_USER_TERMS_VERSION_NOT_FOUND"
  }
]

const rawCases: ReadonlyArray<Case> = [
  raw("truncated JSON", '{"customerType":'),
  raw("single quotes", "{'customerType':'INDIVIDUAL'}"),
  raw("trailing comma", '{"customerType":"INDIVIDUAL",}'),
  raw("bare word", "INDIVIDUAL"),
  raw("NaN literal", '{"n": NaN}'),
  raw("unclosed array", "[1,2"),
  raw("comment", '/* x */ {"customerType":"INDIVIDUAL"}'),
  raw("invalid UTF-8", new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])),
  raw("two documents", '{"a":1}{"b":2}'),
  raw("only whitespace", "   \n  "),
  raw("text/plain body", '{"customerType":"INDIVIDUAL"}', 415, "UNSUPPORTED_MEDIA_TYPE", "text/plain"),
  raw("form body", "customerType=INDIVIDUAL", 415, "UNSUPPORTED_MEDIA_TYPE", "application/x-www-form-urlencoded"),
  raw("multipart body", "--x\r\n\r\n--x--", 415, "UNSUPPORTED_MEDIA_TYPE", "multipart/form-data; boundary=x"),
  raw("xml body", "<customer/>", 415, "UNSUPPORTED_MEDIA_TYPE", "application/xml"),
  raw("body over 1 MiB", JSON.stringify({ customerType: "INDIVIDUAL", fullName: "x".repeat(1_100_000) }), 413, "PAYLOAD_TOO_LARGE")
]

const badIds = [
  "x",
  "Customer:123",
  "Customer:",
  "customer:019542f5-b3e7-4d02-8000-000000000001",
  "019542f5-b3e7-4d02-8000-000000000001",
  "InternalAccount:019542f5-b3e7-4d02-8000-000000000001",
  "Customer:019542f5-b3e7-4d02-8000-00000000000Z",
  "Customer:019542f5-b3e7-4d02-8000-000000000099",
  encodeURIComponent("Customer:" + "a".repeat(500)),
  "%E0%A4%A",
  "%00",
  encodeURIComponent("../platform"),
  encodeURIComponent("' OR 1=1 --")
]

const idCases: ReadonlyArray<Case> = badIds.flatMap((id) => [
  { name: `GET id ${id.slice(0, 40)}`, method: "GET", path: `${V}/customers/${id}`, status: 404, code: id === "%E0%A4%A" || id === "%00" ? (id === "%00" ? "USER_NOT_FOUND" : "NOT_FOUND") : "USER_NOT_FOUND" },
  { name: `DELETE id ${id.slice(0, 40)}`, method: "DELETE", path: `${V}/customers/${id}`, status: 404, code: id === "%E0%A4%A" ? "NOT_FOUND" : "USER_NOT_FOUND" },
  {
    name: `PATCH id ${id.slice(0, 40)}`,
    method: "PATCH",
    path: `${V}/customers/${id}`,
    options: { body: { customerType: "INDIVIDUAL", fullName: "Z" } },
    status: 404,
    code: id === "%E0%A4%A" ? "NOT_FOUND" : "USER_NOT_FOUND"
  }
])

const q = (name: string, path: string, fields: ReadonlyArray<string>): Case => ({ name, method: "GET", path: `${V}${path}`, status: 400, code: "INVALID_INPUT", fields })

const queryCases: ReadonlyArray<Case> = [
  q("limit not a number", "/customers?limit=abc", ["limit"]),
  q("limit zero", "/customers?limit=0", ["limit"]),
  q("limit over 100", "/customers?limit=101", ["limit"]),
  q("limit fractional", "/customers?limit=1.5", ["limit"]),
  q("limit negative", "/customers?limit=-3", ["limit"]),
  q("cursor garbage", "/customers?cursor=zzz", ["cursor"]),
  q("cursor forged text", `/customers?cursor=${encodeURIComponent("p1; DROP TABLE")}`, ["cursor"]),
  q("customerType unknown", "/customers?customerType=ROBOT", ["customerType"]),
  q("createdAfter not a date-time", "/customers?createdAfter=yesterday", ["createdAfter"]),
  q("updatedBefore date only", "/customers?updatedBefore=2025-01-01", ["updatedBefore"]),
  q("isIncludingDeleted not boolean", "/customers?isIncludingDeleted=maybe", ["isIncludingDeleted"]),
  q("region bad", "/customers?region=usa", ["region"]),
  q("currency bad", "/customers?currency=us%20dollar", ["currency"]),
  q("several bad parameters", "/customers?limit=0&cursor=zz&customerType=X", ["limit", "cursor", "customerType"]),
  q("internal accounts: customerId malformed", "/customers/internal-accounts?customerId=Customer:1", ["customerId"]),
  q("internal accounts: type unknown", "/customers/internal-accounts?type=SAVINGS", ["type"]),
  q("internal accounts: limit bad", "/customers/internal-accounts?limit=1000", ["limit"]),
  q("platform accounts: type unknown", "/platform/internal-accounts?type=X", ["type"])
]

const patchCases: ReadonlyArray<Case> = [
  { name: "PATCH without customerType", method: "PATCH", path: "@", options: { body: { fullName: "A" } }, status: 400, code: "INVALID_INPUT", fields: ["customerType"] },
  { name: "PATCH with bad email", method: "PATCH", path: "@", options: { body: { customerType: "INDIVIDUAL", email: "no" } }, status: 400, code: "INVALID_INPUT", fields: ["email"] },
  { name: "PATCH body is an array", method: "PATCH", path: "@", options: { body: [] }, status: 400, code: "INVALID_INPUT", fields: ["body"] },
  { name: "PATCH empty body", method: "PATCH", path: "@", options: {}, status: 400, code: "INVALID_INPUT", fields: ["body"] },
  { name: "PATCH malformed JSON", method: "PATCH", path: "@", options: { raw: "{", headers: { "content-type": "application/json" } }, status: 400, code: "INVALID_INPUT" },
  { name: "PATCH changes type", method: "PATCH", path: "@", options: { body: { customerType: "BUSINESS" } }, status: 400, code: "INVALID_INPUT", fields: ["customerType"] },
  { name: "PATCH email and phone together", method: "PATCH", path: "@", options: { body: { customerType: "INDIVIDUAL", email: "a@b.co", phoneNumber: "+14155551234" } }, status: 400, code: "INVALID_INPUT", fields: ["phoneNumber"] },
  { name: "PATCH bad nested address", method: "PATCH", path: "@", options: { body: { customerType: "INDIVIDUAL", address: { line1: 5 } } }, status: 400, code: "INVALID_INPUT", fields: ["address.line1", "address.postalCode", "address.country"] }
]

const auth = (name: string, value: string | null): Case => ({ name, method: "GET", path: `${V}/customers`, options: { auth: value }, status: 401, code: "UNAUTHORIZED" })
const b64 = (s: string) => Buffer.from(s).toString("base64")

const headerCases: ReadonlyArray<Case> = [
  auth("no Authorization", null),
  auth("empty Authorization", ""),
  auth("Bearer token", "Bearer abc"),
  auth("Basic without payload", "Basic"),
  auth("Basic not base64", "Basic !!!!"),
  auth("Basic without colon", `Basic ${b64("test-client")}`),
  auth("Basic empty id", `Basic ${b64(":test-secret-0123456789")}`),
  auth("Basic wrong secret", `Basic ${b64("test-client:nope")}`),
  auth("Basic unknown client", `Basic ${b64("ghost:test-secret-0123456789")}`),
  auth("Basic secret with suffix", `Basic ${b64("test-client:test-secret-0123456789x")}`),
  auth("Basic secret prefix only", `Basic ${b64("test-client:test-secret")}`),
  auth("Basic invalid UTF-8", `Basic ${Buffer.from([0xff, 0x3a, 0x61]).toString("base64")}`),
  { name: "unknown route", method: "GET", path: `${V}/nothing-here`, status: 404, code: "NOT_FOUND" },
  { name: "unknown version", method: "GET", path: "/2024-01-01/customers", status: 404, code: "NOT_FOUND" },
  { name: "no version", method: "GET", path: "/customers", status: 404, code: "NOT_FOUND" },
  { name: "wrong method on collection", method: "PUT", path: `${V}/customers`, status: 405, code: "METHOD_NOT_ALLOWED" },
  { name: "wrong method on item", method: "POST", path: `${V}/customers/Customer:019542f5-b3e7-4d02-8000-000000000001`, status: 405, code: "METHOD_NOT_ALLOWED" },
  { name: "wrong method on platform accounts", method: "DELETE", path: `${V}/platform/internal-accounts`, status: 405, code: "METHOD_NOT_ALLOWED" },
  { name: "unknown route without credentials", method: "GET", path: `${V}/nothing-here`, options: { auth: null }, status: 401, code: "UNAUTHORIZED" },
  { name: "clock advance on a real clock", method: "POST", path: `${V}/sandbox/clock/advance`, options: { body: { seconds: 10 } }, status: 409, code: "CONFLICT" },
  { name: "clock advance with bad seconds", method: "POST", path: `${V}/sandbox/clock/advance`, options: { body: { seconds: "ten" } }, status: 400, code: "INVALID_INPUT", fields: ["seconds"] },
  { name: "clock advance negative", method: "POST", path: `${V}/sandbox/clock/advance`, options: { body: { seconds: -1 } }, status: 400, code: "INVALID_INPUT", fields: ["seconds"] }
]

const all = [...bodyCases, ...rawCases, ...idCases, ...queryCases, ...patchCases, ...headerCases]

describe("bad input never costs state and never yields a 500", () => {
  let t: TestServer
  let existing: any
  let stateBefore: string
  const state = async () => JSON.stringify((await t.request("GET", `${V}/customers?isIncludingDeleted=true&limit=100`)).body)
  beforeAll(async () => {
    t = await startTestServer("sqlite")
    existing = (await t.request("POST", `${V}/customers`, { body: individual() })).body
    stateBefore = await state()
  })
  afterAll(async () => t.close())

  it(`has at least 100 cases (${all.length})`, () => expect(all.length).toBeGreaterThanOrEqual(100))

  it.each(all.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const path = c.path === "@" ? `${V}/customers/${existing.id}` : c.path
    const r = await t.request(c.method, path, c.options)
    expect(r.status).toBe(c.status)
    expect(r.body.code).toBe(c.code)
    expect(r.body.status).toBe(c.status)
    expect(typeof r.body.message).toBe("string")
    if (c.fields !== undefined) {
      const fields = (r.body.details.errors as Array<{ field: string }>).map((e) => e.field)
      for (const f of c.fields) expect(fields).toContain(f)
      expect(new Set(fields).size).toBe(fields.length)
    }
    expect(await state()).toBe(stateBefore)
  })
})
