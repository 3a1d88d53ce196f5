import { encodeMultipart, multipartContentType, type RawPart } from "../support/multipart.ts"
import { tinyGif, tinyPdf, tinyPng } from "../support/sample-files.ts"
import type { Ctx } from "./valid.ts"

/** A request on its way out: every part may still be changed by a hostile mutation. */
export interface Draft {
  method: string
  /** Path segments after the versioned base, already as they go on the wire. */
  segments: Array<string>
  base: string
  query: string
  headers: Record<string, string>
  body: Buffer | undefined
  /** What was done to it, for the report. */
  readonly labels: Array<string>
}

const nest = (depth: number, open: string, close: string, inner = "1") => open.repeat(depth) + inner + close.repeat(depth)

const pngPart = (x: Ctx): RawPart => ({ name: "file", value: tinyPng(x.r.int(256)), fileName: "scan.png", contentType: "image/png" })

const multipartMutations: ReadonlyArray<readonly [string, (x: Ctx) => Buffer]> = [
  ["multipart-repeated", (x) => encodeMultipart([{ name: "country", value: "US" }, { name: "country", value: "FR" }, pngPart(x), pngPart(x)])],
  ["multipart-wrong-kinds", () => encodeMultipart([{ name: "documentType", value: "PASSPORT", fileName: "t.txt" }, { name: "file", value: "not a file" }])],
  ["multipart-lying-file", (x) => encodeMultipart([x.r.pick<RawPart>([
    { name: "file", value: tinyGif(), fileName: "x.png", contentType: "image/png" },
    { name: "file", value: tinyPng(), fileName: "x.pdf" },
    { name: "file", value: tinyPdf(), fileName: "x.pdf", contentType: "image/png" },
    { name: "file", value: new Uint8Array(0), fileName: "empty.png" }
  ])])],
  ["multipart-no-closing", (x) => encodeMultipart([pngPart(x)]).subarray(0, -8)],
  ["multipart-other-boundary", (x) => encodeMultipart([pngPart(x)], "other")],
  ["multipart-hostile-names", (x) => encodeMultipart([{ name: "__proto__", value: "x" }, { name: x.c.draw("text"), value: x.c.draw("text"), fileName: x.c.draw("text") }])]
]

/** Bodies no endpoint accepts: wrong JSON, hostile JSON, not JSON. */
const bodyMutations: ReadonlyArray<readonly [string, (x: Ctx, d: Draft, json: unknown) => Buffer | undefined]> = [
  ["random-json", (x) => Buffer.from(JSON.stringify(x.c.draw("json")))],
  ["unicode-json", (x) => Buffer.from(JSON.stringify(x.c.draw("unicodeJson")))],
  ["random-object", (x) => Buffer.from(JSON.stringify(x.c.draw("object")))],
  ["deep-array", (x) => Buffer.from(nest(x.r.pick([63, 64, 65, 200, 2_200, 50_000]), "[", "]"))],
  ["deep-object", (x) => Buffer.from(nest(x.r.pick([63, 65, 2_200, 20_000]), '{"a":', "}"))],
  ["deep-unclosed", (x) => Buffer.from("[".repeat(x.r.pick([70, 10_000])))],
  ["truncated", (_x, d) => (d.body === undefined ? Buffer.from("{") : d.body.subarray(0, Math.max(1, d.body.length >> 1)))],
  ["invalid-utf8", (_x, d) => Buffer.concat([Buffer.from('{"fullName":"'), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from('"}'), d.body ?? Buffer.alloc(0)])],
  ["bom", (_x, d) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), d.body ?? Buffer.from("{}")])],
  ["empty", () => Buffer.alloc(0)],
  ["whitespace", () => Buffer.from(" \n\t ")],
  ["number-text", (x) => Buffer.from(x.r.pick(["1e999", "-0", "NaN", "Infinity", "0x10", "123456789012345678901234567890", "1.", ".5"]))],
  ["duplicate-keys", (_x, d) => Buffer.from(`{"customerType":"INDIVIDUAL","customerType":"BUSINESS",${(d.body?.toString() ?? "{}").slice(1)}`)],
  ["proto-keys", (_x, _d, json) => Buffer.from(JSON.stringify({ ...(isRecord(json) ? json : {}) }).replace(/^\{/, '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}},'))],
  ["huge-string", (x, _d, json) => Buffer.from(JSON.stringify(isRecord(json) ? withField(x, json, "y".repeat(x.r.pick([10_000, 300_000]))) : "x".repeat(100_000)))],
  ["oversized", (x) => Buffer.alloc(x.r.pick([1_100_000, 3_000_000]), 0x20)],
  ["field-wrong-type", (x, _d, json) => Buffer.from(JSON.stringify(isRecord(json) ? withField(x, json, x.r.pick<unknown>([null, 0, -1, true, [], {}, "", x.c.draw("number"), x.c.draw("text")])) : null))],
  ["field-dropped", (x, _d, json) => Buffer.from(JSON.stringify(isRecord(json) ? dropField(x, json) : {}))],
  ["binary", (x) => Buffer.from(x.c.draw("text"), "latin1")],
  ["form", () => Buffer.from("customerType=INDIVIDUAL&fullName=x")],
  // A multipart body under a multipart content type: refused by JSON endpoints (415) and, being
  // wrong in some way, by the multipart ones (400).
  ...multipartMutations.map(([name, make]) => [name, (x: Ctx, d: Draft) => {
    d.headers["content-type"] = multipartContentType()
    return make(x)
  }] as const)
]


const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v)

const withField = (x: Ctx, json: Record<string, unknown>, value: unknown) => {
  const keys = Object.keys(json)
  const k = keys.length === 0 || x.r.chance(0.2) ? x.c.draw("text") : x.r.pick(keys)
  return { ...json, [k]: value }
}

const dropField = (x: Ctx, json: Record<string, unknown>) => {
  const keys = Object.keys(json)
  if (keys.length === 0) return json
  const k = x.r.pick(keys)
  return Object.fromEntries(Object.entries(json).filter(([key]) => key !== k))
}

const hostileSegments = (x: Ctx): string =>
  x.r.pick([
    () => encodeURIComponent(x.c.draw("text")),
    () => x.r.pick(["%", "%zz", "%00", "%2F", "..", ".", "%2e%2e", "", "%C0%AF", "%ED%A0%80", "null", "undefined", "__proto__", "constructor"]),
    () => "a".repeat(x.r.pick([300, 5_000, 20_000])),
    () => x.pool.id(x.r.pick(["Customer", "InternalAccount", "ExternalAccount", "AuthMethod", "Session"] as const), x.r.int(1000)),
    () => "Customer:00000000-0000-4000-8000-00000000000G",
    () => "CUSTOMER:00000000-0000-4000-8000-000000000000"
  ])()

const hostileQueries = (x: Ctx): string =>
  x.r.pick([
    "limit=-1", "limit=0", "limit=abc", "limit=1e9", "limit=101", "limit=1&limit=2", "cursor=garbage", "cursor=", `cursor=${Buffer.from(x.c.draw("text")).toString("base64url")}`,
    "a[b]=c", "%%%", "=", "&&&", "customerType=ROBOT", "createdAfter=2023-02-30", "createdAfter=yesterday", `q=${"q".repeat(10_000)}`,
    `customerId=${encodeURIComponent(x.c.draw("text"))}`, "__proto__[x]=1"
  ])

const authValues = (x: Ctx, good: string): string | undefined =>
  x.r.pick([
    undefined, "", "Basic", "Basic ", "Bearer abc", "Basic !!!notbase64", `Basic ${Buffer.from("no-colon").toString("base64")}`,
    `Basic ${Buffer.from(":").toString("base64")}`, `basic ${good.slice(6)}`, `Basic ${Buffer.from(`sandbox-client-id:${x.c.draw("text")}`).toString("base64")}`,
    `Basic ${Buffer.from(`${x.c.draw("text")}:x`).toString("base64")}`, `Basic ${"A".repeat(8_000)}`
  ])

/** Headers a client should not send, or sends wrong. */
const headerMutations: ReadonlyArray<readonly [string, (x: Ctx, d: Draft) => void]> = [
  ["auth", (x, d) => { const v = authValues(x, d.headers["authorization"] ?? ""); if (v === undefined) delete d.headers["authorization"]; else d.headers["authorization"] = v }],
  ["content-type", (x, d) => { d.headers["content-type"] = x.r.pick(["text/plain", "application/xml", "multipart/form-data; boundary=x", "application/json; charset=latin1", "application/JSON", "", "application/x-www-form-urlencoded", "*/*", "application/json;;;"]) }],
  ["no-content-type", (_x, d) => { delete d.headers["content-type"] }],
  ["signature", (x, d) => { d.headers["service-wallet-signature"] = x.r.pick(["", "x", Buffer.from(x.c.draw("text")).toString("base64url"), Buffer.from(JSON.stringify(x.c.draw("json"))).toString("base64url")]) }],
  ["request-id", (x, d) => { d.headers["request-id"] = x.r.pick(["", "Request:00000000-0000-4000-8000-000000000000", x.c.draw("text").replace(/[^\x21-\x7e]/g, ""), "r".repeat(5_000)]) }],
  ["idempotency-key", (x, d) => { d.headers["idempotency-key"] = x.r.pick(["", "k".repeat(10_000), "key-1"]) }],
  ["big-header", (x, d) => { d.headers["x-fuzz"] = "h".repeat(x.r.pick([4_000, 15_000, 20_000, 70_000])) }],
  ["many-headers", (x, d) => { for (let i = 0; i < x.r.pick([50, 500, 3_000]); i++) d.headers[`x-f${i}`] = "1" }],
  ["control-chars", (x, d) => { d.headers["x-fuzz"] = `a${String.fromCharCode(x.r.int(32))}b` }],
  ["encoding", (x, d) => { d.headers["content-encoding"] = x.r.pick(["gzip", "br", "identity", "bogus"]) }],
  ["accept", (x, d) => { d.headers["accept"] = x.r.pick(["text/html", "application/xml", "*/*;q=0", ""]) }],
  ["expect", (_x, d) => { d.headers["expect"] = "100-continue" }]
]

export const methods = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "PROPFIND", "PURGE", "SEARCH"]

/** One to three hostile changes to a valid request. */
export const mutate = (x: Ctx, d: Draft, json: unknown): void => {
  const count = 1 + x.r.int(3)
  for (let i = 0; i < count; i++) {
    const what = x.r.int(10)
    if (what < 4) {
      const [name, f] = x.r.pick(bodyMutations)
      d.body = f(x, d, json)
      d.labels.push(`body:${name}`)
    } else if (what < 7) {
      const [name, f] = x.r.pick(headerMutations)
      f(x, d)
      d.labels.push(`header:${name}`)
    } else if (what < 8) {
      if (d.segments.length > 0) d.segments[x.r.int(d.segments.length)] = hostileSegments(x)
      else d.segments.push(hostileSegments(x))
      d.labels.push("path:segment")
    } else if (what < 9) {
      d.query = hostileQueries(x)
      d.labels.push("query")
    } else {
      d.method = x.r.pick(methods)
      d.labels.push(`method:${d.method}`)
    }
  }
}
