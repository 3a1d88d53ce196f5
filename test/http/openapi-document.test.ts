import { Validator } from "@seriousme/openapi-schema-validator"
import Ajv2020 from "ajv/dist/2020.js"
import addFormats from "ajv-formats"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeEngine } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { routes, toFetchHandler } from "@tessera/adapter-http"
import { deviations, referenceFacts } from "@tessera/adapter-http/openapi"
import { mintOidcToken, newKeyPair } from "@tessera/core/testing"
import { CLIENT_ID, CLIENT_SECRET, individual, startTestServer, type TestServer } from "../support/server.ts"
import { loginWithOtp, newWallet, signed } from "../support/wallet.ts"

type Doc = {
  openapi: string
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, { content?: Record<string, { schema: unknown }>; headers?: Record<string, unknown> }> }>>
  components: { schemas: Record<string, unknown> }
}

let t: TestServer
let doc: Doc
beforeAll(async () => {
  t = await startTestServer("memory")
  const res = await fetch(`${t.origin}/openapi.json`)
  expect(res.status).toBe(200)
  expect(res.headers.get("content-type")).toMatch(/^application\/json/)
  doc = (await res.json()) as Doc
})
afterAll(() => t.close())

const V = "/2025-10-13"
const operationsOf = (d: Doc) => Object.entries(d.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })))

/** A JSON pointer into the document, as a URI fragment. */
const pointer = (...tokens: Array<string>) => "#/" + tokens.map((s) => encodeURIComponent(s.replace(/~/g, "~0").replace(/\//g, "~1"))).join("/")

describe("GET /openapi.json", () => {
  it("is a valid OpenAPI 3.1 document, and the validator does reject a broken one", async () => {
    const result = await new Validator().validate(doc)
    expect(result.errors).toBeUndefined()
    expect(result.valid).toBe(true)
    expect(doc.openapi).toBe("3.1.0")
    const { info: _, ...broken } = doc as unknown as Record<string, unknown>
    expect((await new Validator().validate(broken)).valid).toBe(false)
  })

  it("is served without credentials, outside the version prefix, and under a fetch handler's mount prefix", async () => {
    expect((await fetch(`${t.origin}${V}/openapi.json`)).status).toBe(401)
    const engine = makeEngine({ store: MemoryStore.layer })
    await engine.platform({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET })
    const handler = toFetchHandler(engine, { prefix: "/tessera" })
    const res = await handler(new Request("http://host/tessera/openapi.json"))
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual(doc)
    await engine.dispose()
  })

  it("lists every route of the table exactly once, with its operationId and method", () => {
    const ops = operationsOf(doc)
    expect(ops).toHaveLength(routes.length)
    expect(new Set(ops.map((o) => o.op.operationId)).size).toBe(routes.length)
    for (const r of routes) expect(doc.paths[r.path]?.[r.method.toLowerCase()]?.operationId, `${r.method} ${r.path}`).toBe(r.operationId)
  })

  it("puts every reference operation at the reference's path and method; the others are Tessera's own", () => {
    for (const { path, method, op } of operationsOf(doc)) {
      const facts = referenceFacts.operations[op.operationId]
      if (facts === undefined) expect(op.operationId.startsWith(deviations.ownOperationPrefix), op.operationId).toBe(true)
      else expect(`${method} ${path}`, op.operationId).toBe(`${facts.method} ${facts.path}`)
    }
  })

  it("resolves every $ref and discriminator mapping inside the document", () => {
    const targets: Array<string> = []
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(walk)
      if (node === null || typeof node !== "object") return
      for (const [k, v] of Object.entries(node)) {
        if (k === "$ref" && typeof v === "string") targets.push(v)
        if (k === "mapping" && typeof v === "object" && v !== null) targets.push(...(Object.values(v) as Array<string>))
        walk(v)
      }
    }
    walk(doc)
    expect(targets.length).toBeGreaterThan(100)
    const resolve = (ref: string) =>
      ref
        .slice(2)
        .split("/")
        .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
        .reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], doc)
    const unresolved = [...new Set(targets)].filter((r) => !r.startsWith("#/") || resolve(r) === undefined)
    expect(unresolved).toEqual([])
  })
})

describe("real answers satisfy the served document's own schemas", () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats.default(ajv)
  beforeAll(() => {
    ajv.addSchema(doc, "served.json")
  })

  /** Validates one answer against the response the document declares for its status (or its `4XX`). */
  const conforms = (method: string, path: string, reply: { status: number; body: unknown }) => {
    const responses = doc.paths[path]![method.toLowerCase()]!.responses
    const status = String(reply.status) in responses ? String(reply.status) : `${String(reply.status)[0]}XX`
    expect(responses[status], `${method} ${path} declares ${reply.status}`).toBeDefined()
    if (responses[status]!.content === undefined) return expect(reply.body).toBeUndefined()
    const validate = ajv.compile({ $ref: "served.json" + pointer("paths", path, method.toLowerCase(), "responses", status, "content", "application/json", "schema") })
    expect(validate(reply.body) ? [] : validate.errors, `${method} ${path} ${reply.status}`).toEqual([])
  }

  it("customers: created, read, listed, unknown, invalid, unauthenticated and not JSON", async () => {
    const created = await t.request("POST", `${V}/customers`, { body: individual() })
    conforms("POST", "/customers", created)
    conforms("GET", "/customers/{customerId}", await t.request("GET", `${V}/customers/${created.body.id}`))
    conforms("GET", "/customers", await t.request("GET", `${V}/customers?limit=1`))
    const unknown = await t.request("GET", `${V}/customers/Customer:00000000-0000-0000-0000-000000000000`)
    expect(unknown.status).toBe(404)
    conforms("GET", "/customers/{customerId}", unknown)
    const invalid = await t.request("POST", `${V}/customers`, { body: { customerType: "INDIVIDUAL", email: "nope" } })
    expect(invalid.status).toBe(400)
    conforms("POST", "/customers", invalid)
    const anonymous = await t.request("GET", `${V}/customers`, { auth: null })
    expect(anonymous.status).toBe(401)
    conforms("GET", "/customers", anonymous)
    const text = await t.request("POST", `${V}/customers`, { raw: "hello", headers: { "content-type": "text/plain" } })
    expect(text.status).toBe(415)
    conforms("POST", "/customers", text)
  })

  it("Tessera's own sandbox operations, an error among them", async () => {
    conforms("GET", "/sandbox/clock", await t.request("GET", `${V}/sandbox/clock`))
    conforms("GET", "/sandbox/events", await t.request("GET", `${V}/sandbox/events`))
    conforms("GET", "/sandbox/webhooks/public-key", await t.request("GET", `${V}/sandbox/webhooks/public-key`))
    conforms("POST", "/sandbox/processing", await t.request("POST", `${V}/sandbox/processing`, { body: { operations: 1, seconds: 5 } }))
    const bad = await t.request("POST", `${V}/sandbox/clock/advance`, { body: { seconds: -1 } })
    expect(bad.status).toBe(400)
    conforms("POST", "/sandbox/clock/advance", bad)
  })

  it("carries the deviations on the operations they touch", () => {
    const processing = { status: 200, body: { status: "PROCESSING", message: "still settling" } }
    let signed = 0
    for (const { path, method, op } of operationsOf(doc)) {
      // A missing resource has the reference's code; "no route" (NOT_FOUND) is no operation's answer.
      const missing = (code: string) => ({ status: 404, body: { status: 404, code, message: "x", details: {} } })
      if (referenceFacts.operations[op.operationId]?.responses["404"] !== undefined) {
        conforms(method, path, missing("REFERENCE_NOT_FOUND"))
        expect(() => conforms(method, path, missing(deviations.noRoute.code)), op.operationId).toThrow()
      } else expect(op.responses["404"], op.operationId).toBeUndefined()
      // Authentication's throttle and the parser's refusals come before any operation is known.
      conforms(method, path, { status: 429, body: { status: 429, code: "RATE_LIMITED", message: "x", details: { reason: "TOO_MANY_FAILED_AUTHENTICATIONS" } } })
      expect(op.responses["429"]?.headers?.["Retry-After"], `${op.operationId} 429 Retry-After`).toBeDefined()
      conforms(method, path, { status: 431, body: { status: 431, code: "REQUEST_HEADER_FIELDS_TOO_LARGE", message: "x", details: {} } })
      conforms(method, path, { status: 408, body: { status: 408, code: "REQUEST_TIMEOUT", message: "x", details: {} } })
      if (deviations.processingOperations.has(op.operationId)) conforms(method, path, processing)
      const names = new Set((op as { parameters?: Array<{ name: string }> }).parameters?.map((p) => p.name))
      for (const [reference, own] of Object.entries(deviations.headerNames))
        if (referenceFacts.operations[op.operationId]?.parameters.some((p) => p.name === reference)) {
          expect([names.has(own), names.has(reference)], op.operationId).toEqual([true, true])
          signed++
        }
    }
    expect(signed).toBeGreaterThan(5)
  })

  it("declares the 200 PROCESSING the spec requires where the reference has no 200, and live ones conform", async () => {
    // Spec, "Still-processing handling": adding a credential (201), revoking a credential or a
    // session (204) answer 200 PROCESSING while settling; the reference declares no 200 for them.
    const spec = ["createAuthCredential", "revokeAuthCredential", "revokeAuthSession"]
    for (const id of spec) {
      expect(referenceFacts.operations[id]!.responses["200"], id).toBeUndefined()
      const facts = referenceFacts.operations[id]!
      const declared = doc.paths[facts.path]![facts.method]!.responses["200"] as { description: string; content?: Record<string, { schema: unknown }> }
      expect(declared.content?.["application/json"]?.schema, id).toEqual({ $ref: "#/components/schemas/TesseraProcessing" })
      expect(declared.description, id).toMatch(/^Still processing/)
    }
    // Lift the platform-wide hold an earlier test set, so only the holds below apply.
    await t.request("POST", `${V}/sandbox/processing`, { body: { operations: 0, seconds: 0 } })
    const w = await newWallet(t)
    const email = await loginWithOtp(t, w.emailCredentialId)
    const sub = `held-${Math.random()}`
    const oauth = (await signed(t, "POST", `${V}/auth/credentials`, email.key, { type: "OAUTH", accountId: w.accountId, oidcToken: mintOidcToken({ sub }) })).final
    expect(oauth.status, JSON.stringify(oauth.body)).toBe(201)
    const client = newKeyPair()
    const session = await t.request("POST", `${V}/auth/credentials/${oauth.body.id}/verify`, {
      body: { type: "OAUTH", oidcToken: mintOidcToken({ sub, clientPublicKey: client.publicKey }), clientPublicKey: client.publicKey }
    })
    expect(session.status).toBe(200)
    await t.request("POST", `${V}/sandbox/internal-accounts/${w.accountId}/processing`, { body: { operations: 3, seconds: 3600 } })
    const held = [
      { method: "POST", path: "/auth/credentials", url: `${V}/auth/credentials`, body: { type: "OAUTH", accountId: w.accountId, oidcToken: mintOidcToken({ sub: `${sub}-2` }) } },
      { method: "DELETE", path: "/auth/credentials/{id}", url: `${V}/auth/credentials/${oauth.body.id}` },
      { method: "DELETE", path: "/auth/sessions/{id}", url: `${V}/auth/sessions/${session.body.id}` }
    ]
    for (const h of held) {
      const { final } = await signed(t, h.method, h.url, email.key, h.body)
      expect([final.status, final.body?.status], `${h.method} ${h.path}`).toEqual([200, "PROCESSING"])
      conforms(h.method, h.path, final)
    }
  })

  it("rejects an answer that breaks the schema, so the checks above can fail", async () => {
    const created = await t.request("POST", `${V}/customers`, { body: individual({ email: "other@example.com" }) })
    const { umaAddress: _, ...withoutUma } = created.body
    expect(() => conforms("GET", "/customers/{customerId}", { status: 200, body: created.body })).not.toThrow()
    expect(() => conforms("GET", "/customers/{customerId}", { status: 200, body: withoutUma })).toThrow()
    expect(() => conforms("GET", "/sandbox/clock", { status: 200, body: { now: "2025-01-01T00:00:00Z", mode: "fast" } })).toThrow()
  })
})
