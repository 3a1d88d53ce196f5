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

  const routes = endpoints.map((e) => ({ operationId: e.operationId, method: e.method, path: `${V}${concrete(e.path)}` }))

  it("the table has routes of every issue-13 group", () => {
    const ids = new Set(routes.map((r) => r.operationId))
    for (const id of ["createCard", "sandboxSimulateCardReturnReversal", "startScaLogin", "authorizeQuote", "updatePlatformConfig", "createToken", "claimInvitation", "createDelegatedKey", "listVasps"])
      expect(ids.has(id), id).toBe(true)
  })

  it.each(routes)("$operationId ($method) without credentials → 401 UNAUTHORIZED", async ({ method, path }) => {
    const r = await t.request(method, path, { auth: null, ...(method === "GET" || method === "DELETE" ? {} : { body: {} }) })
    expect(r.status).toBe(401)
    expect(r.body).toMatchObject({ status: 401, code: "UNAUTHORIZED" })
    expect(r.headers.get("www-authenticate")).toMatch(/^Basic /)
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
