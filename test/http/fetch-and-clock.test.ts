import { describe, expect, it } from "vitest"
import { makeEngine } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { toFetchHandler } from "@tessera/adapter-http"
import { checkResponse } from "../support/openapi-checker.ts"
import { basic, CLIENT_ID, CLIENT_SECRET, individual, operationFor, startTestServer } from "../support/server.ts"

const V = "/2025-10-13"

describe("toFetchHandler", () => {
  it("serves the API as Request → Response, under a mount prefix", async () => {
    const engine = makeEngine({ store: MemoryStore.layer })
    await engine.platform({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET })
    const handler = toFetchHandler(engine, { prefix: "/tessera" })
    const call = async (method: string, path: string, body?: unknown, auth: string | null = basic()) => {
      const headers: Record<string, string> = {}
      if (auth !== null) headers["authorization"] = auth
      if (body !== undefined) headers["content-type"] = "application/json"
      const res = await handler(
        new Request(`http://host/tessera${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
      )
      const json = await res.json()
      expect(checkResponse(operationFor(method, path), res.status, json).problems).toEqual([])
      return { status: res.status, body: json, headers: res.headers }
    }
    const created = await call("POST", `${V}/customers`, individual())
    expect(created.status).toBe(201)
    expect((await call("GET", `${V}/customers/${created.body.id}`)).body).toEqual(created.body)
    const denied = await call("GET", `${V}/customers`, undefined, null)
    expect(denied.status).toBe(401)
    expect(denied.headers.get("www-authenticate")).toMatch(/Basic/)
    const big = await handler(
      new Request(`http://host/tessera${V}/customers`, {
        method: "POST",
        headers: { authorization: basic(), "content-type": "application/json" },
        body: "x".repeat(2 * 1024 * 1024)
      })
    )
    expect(big.status).toBe(413)
    await engine.dispose()
  })
})

describe("virtual clock", () => {
  it("stands still until advanced, and the engine's timestamps follow it", async () => {
    const t = await startTestServer("sqlite", { clock: "virtual" })
    try {
      const c0 = await t.request("GET", `${V}/sandbox/clock`)
      expect(c0.body.mode).toBe("virtual")
      const c1 = await t.request("GET", `${V}/sandbox/clock`)
      expect(c1.body.now).toBe(c0.body.now)
      const adv = await t.request("POST", `${V}/sandbox/clock/advance`, { body: { seconds: 3600 } })
      expect(adv.status).toBe(200)
      expect(Date.parse(adv.body.now) - Date.parse(c0.body.now)).toBe(3_600_000)
      const created = await t.request("POST", `${V}/customers`, { body: individual({ email: undefined }) })
      expect(created.body.createdAt).toBe(adv.body.now)
    } finally {
      await t.close()
    }
  })

  it("resumes from the stored time after a restart", async () => {
    const { mkdtempSync } = await import("node:fs")
    const { tmpdir } = await import("node:os")
    const { join } = await import("node:path")
    const filename = join(mkdtempSync(join(tmpdir(), "tessera-clock-")), "db.sqlite")
    const a = await startTestServer("sqlite", { filename, clock: "virtual" })
    const moved = (await a.request("POST", `${V}/sandbox/clock/advance`, { body: { seconds: 86_400 * 30 } })).body.now
    await a.close()
    const b = await startTestServer("sqlite", { filename, clock: "virtual" })
    try {
      expect((await b.request("GET", `${V}/sandbox/clock`)).body.now).toBe(moved)
    } finally {
      await b.close()
    }
  })
})
