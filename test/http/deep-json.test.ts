import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeEngine, MAX_JSON_DEPTH } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { type HttpResponse, makeHandler, toFetchHandler } from "@tessera/adapter-http"
import { basic, CLIENT_ID, CLIENT_SECRET, individual, startTestServer, type TestServer } from "../support/server.ts"

const V = "/2025-10-13"

// ~2,200 levels in ~4.4 KB: deep enough to overflow the stack of anything that recurses over it.
const deepArray = (depth: number) => "[".repeat(depth) + "]".repeat(depth)
const deepObject = (depth: number) => '{"a":'.repeat(depth) + "1" + "}".repeat(depth)
const deepIn = (field: string, inner: string) => JSON.stringify(individual()).slice(0, -1) + `,"${field}":${inner}}`

const bodies: ReadonlyArray<[string, string]> = [
  ["a deep array", deepArray(2200)],
  ["a deep object", deepObject(2200)],
  ["a deep value inside a valid body", deepIn("fullName", deepArray(2200))],
  ["brackets inside strings do not count, the real ones do", deepIn("x", `"${"[".repeat(5000)}"`).slice(0, -1) + `,"y":${deepObject(2200)}}`]
]

const routes: ReadonlyArray<[string, string]> = [
  ["POST", `${V}/customers`],
  ["POST", `${V}/sandbox/clock/advance`],
  ["PUT", `${V}/sandbox/state`],
  ["PATCH", `${V}/customers/Customer:019a0000-0000-7000-8000-000000000000`]
]

describe("deeply nested JSON bodies answer 400, never a 500", () => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer("memory")
  })
  afterAll(() => t.close())

  for (const [method, path] of routes)
    for (const [name, raw] of bodies)
      it(`${method} ${path.slice(V.length)}: ${name}`, async () => {
        const res = await t.request(method, path, { raw, headers: { "content-type": "application/json" } })
        expect([res.status, res.body.code]).toEqual([400, "INVALID_INPUT"])
        expect(res.body.details.errors).toEqual([{ field: "body", message: `nests deeper than ${MAX_JSON_DEPTH} levels` }])
      })

  it("a body at the depth limit is read as usual", async () => {
    const res = await t.request("POST", `${V}/customers`, {
      raw: deepIn("fullName", deepArray(MAX_JSON_DEPTH - 1)),
      headers: { "content-type": "application/json" }
    })
    expect(res.status, JSON.stringify(res.body)).toBe(400)
    expect(JSON.stringify(res.body.details.errors)).not.toContain("nests deeper")
  })

  it("a normal body still creates the customer", async () => {
    const res = await t.request("POST", `${V}/customers`, { body: individual() })
    expect(res.status).toBe(201)
  })
})

describe("deeply nested bodies on the other transports", () => {
  const engine = makeEngine({ store: MemoryStore.layer })
  beforeAll(() => engine.platform({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }))
  afterAll(() => engine.dispose())

  it("the fetch handler answers 400", async () => {
    const res = await toFetchHandler(engine)(
      new Request(`http://host${V}/customers`, {
        method: "POST",
        headers: { authorization: basic(), "content-type": "application/json" },
        body: deepIn("fullName", deepObject(2200))
      })
    )
    expect([res.status, (await res.json()).details.errors?.[0]?.field]).toEqual([400, "body"])
  })

  it("a body a host framework already parsed answers 400", async () => {
    const res = await new Promise<HttpResponse>((resolve) =>
      makeHandler(engine)(
        {
          method: "POST",
          url: `${V}/customers`,
          header: (n) => ({ authorization: basic(), "content-type": "application/json" })[n],
          body: { parsed: JSON.parse(deepIn("fullName", deepArray(2200))) }
        },
        resolve
      )
    )
    expect([res.status, JSON.parse(res.body).details.errors?.[0]?.field]).toEqual([400, "body"])
  })
})
