import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Layer } from "effect"
import { describe, expect, it } from "vitest"
import { makeEngine, Store } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { makeSqliteStore, openDatabase } from "@tessera/adapter-sqlite"
import { serve, toFetchHandler } from "@tessera/adapter-http"
import { checkResponse } from "../support/openapi-checker.ts"
import { startTestServer, type StoreKind } from "../support/server.ts"

const kinds: ReadonlyArray<StoreKind> = ["memory", "sqlite"]

describe.each(kinds)("GET /health (%s)", (kind) => {
  it("answers without credentials, outside the version prefix, with the store and clock", async () => {
    const t = await startTestServer(kind, { clock: "virtual" })
    try {
      const res = await t.request("GET", "/health", { auth: null })
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ status: "ok", apiVersion: "2025-10-13", store: "ok", clock: { mode: "virtual" } })
      expect(Date.parse(res.body.clock.now)).not.toBeNaN()
      expect(res.headers.get("cache-control")).toBe("no-store")
      // Only the exact path is open: below the version prefix a health route is just unknown, and needs credentials.
      expect((await t.request("GET", "/2025-10-13/health", { auth: null })).status).toBe(401)
      expect((await t.request("GET", "/health/", { auth: null })).status).toBe(404)
      expect((await t.request("POST", "/health", { auth: null })).status).toBe(404)
    } finally {
      await t.close()
    }
  })
})

describe("GET /health when the store is broken", () => {
  it("answers 503 with the envelope once the database is closed, never ok", async () => {
    const db = openDatabase({ filename: join(mkdtempSync(join(tmpdir(), "tessera-health-")), "h.sqlite") })
    const engine = makeEngine({ store: Layer.succeed(Store, makeSqliteStore(db)) })
    const server = await serve({ engine, port: 0 })
    try {
      const url = `http://127.0.0.1:${server.port}/health`
      expect((await fetch(url)).status).toBe(200)
      db.close()
      const res = await fetch(url)
      const body = await res.json()
      expect(res.status).toBe(503)
      expect(body).toEqual({ status: 503, code: "SERVICE_UNAVAILABLE", message: expect.any(String), details: {} })
      expect(checkResponse(undefined, res.status, body).problems).toEqual([])
    } finally {
      await server.close()
      await engine.dispose()
    }
  })

  it("is served at <prefix>/health by the fetch handler", async () => {
    const engine = makeEngine({ store: MemoryStore.layer })
    const handler = toFetchHandler(engine, { prefix: "/tessera" })
    const res = await handler(new Request("http://host/tessera/health"))
    expect(res.status).toBe(200)
    expect((await res.json()).status).toBe("ok")
    await engine.dispose()
  })
})
