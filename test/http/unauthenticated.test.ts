import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { endpoints } from "@tessera/core"
import { basic, startTestServer, type TestServer } from "../support/server.ts"

const V = "/2025-10-13"

/** A concrete path for an endpoint's template: every `{param}` becomes a well-formed but unknown value. */
const concrete = (path: string) => path.replace(/\{[^}]+\}/g, "Unknown:00000000-0000-4000-8000-000000000000")

/**
 * Every route of the endpoint table refuses a request without valid credentials with the 401
 * envelope, before it reads the body or looks anything up: the platform's data is never reached,
 * whatever route a stranger tries. Each answer is checked against the reference's 401 for the
 * operation by the test server.
 */
describe("every route needs credentials", () => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer("memory")
  })
  afterAll(async () => t.close())

  // The device code's redemption takes the code as its credential (the reference's `security: []`, #371).
  const routes = endpoints
    .filter((e) => e.auth !== "device-code")
    .map((e) => ({ operationId: e.operationId, method: e.method, path: `${V}${concrete(e.path)}`, scheme: e.auth === "agent" ? "Bearer" : "Basic" }))

  it("the table has routes of every issue-13 group", () => {
    const ids = new Set(routes.map((r) => r.operationId))
    for (const id of ["createCard", "sandboxSimulateCardReturnReversal", "startScaLogin", "authorizeQuote", "updatePlatformConfig", "createToken", "claimInvitation", "createDelegatedKey", "listVasps"])
      expect(ids.has(id), id).toBe(true)
  })

  it.each(routes)("$operationId ($method) without credentials → 401 UNAUTHORIZED", async ({ method, path, scheme }) => {
    const r = await t.request(method, path, { auth: null, ...(method === "GET" || method === "DELETE" ? {} : { body: {} }) })
    expect(r.status).toBe(401)
    expect(r.body).toMatchObject({ status: 401, code: "UNAUTHORIZED" })
    expect(r.headers.get("www-authenticate")?.startsWith(`${scheme} `)).toBe(true)
  })

  it.each(routes.filter((r) => r.scheme === "Bearer"))("$operationId with the platform's own Basic credentials → 401: they are no agent's", async ({ method, path }) => {
    const r = await t.request(method, path, method === "GET" || method === "DELETE" ? {} : { body: {} })
    expect(r.status).toBe(401)
    expect(r.headers.get("www-authenticate")).toMatch(/^Bearer /)
  })

  it("the device code's redemption needs no credentials, and an unknown code is 404", async () => {
    const r = await t.request("POST", `${V}/agents/device-codes/GRID-AGENT-AAAA-BBBB/redeem`, { auth: null, body: {} })
    expect(r.status).toBe(404)
    expect(r.body).toMatchObject({ status: 404, code: "REFERENCE_NOT_FOUND" })
  })

  // Four, not more: the fifth wrong secret for one client id within a minute is answered 429 (#128).
  it.each(routes.filter((r) => r.method !== "GET").slice(0, 4))("$operationId with a wrong secret → 401, and nothing is written", async ({ method, path }) => {
    const before = (await t.request("GET", `${V}/sandbox/state`)).body.collections
    expect(before).toHaveProperty("customers")
    const r = await t.request(method, path, { auth: basic("test-client", "not-the-secret"), body: {} })
    expect(r.status).toBe(401)
    expect((await t.request("GET", `${V}/sandbox/state`)).body.collections).toEqual(before)
  })
})
