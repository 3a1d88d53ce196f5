import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { expect } from "vitest"
import { Engine } from "@tessera/core"
import { AsyncMemoryStore, MemoryStore } from "@tessera/adapter-memory"
import { SqliteStore } from "@tessera/adapter-sqlite"
import { freshPostgresLayer, postgresLayer } from "./postgres.ts"
import { serve, type RunningServer } from "@tessera/adapter-http"
import { checkResponse, operationFor } from "./openapi-checker.ts"
import { recordStatus } from "./coverage-records.ts"

export { operationFor }

export const CLIENT_ID = "test-client"
export const CLIENT_SECRET = "test-secret-0123456789"
export const basic = (id = CLIENT_ID, secret = CLIENT_SECRET) =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`

export interface Reply {
  readonly status: number
  readonly headers: Headers
  readonly body: any
}

export interface RequestOptions {
  readonly body?: unknown
  /** Sent as-is (for malformed bodies); overrides `body`. */
  readonly raw?: string | Uint8Array
  /** Sent as multipart/form-data, the way a browser or `fetch` sends a form; overrides `body`. */
  readonly form?: FormData
  readonly auth?: string | null
  readonly headers?: Record<string, string>
}

/**
 * `async-memory`: the memory store behind a real asynchronous boundary (a test double for async
 * drivers); `postgres`: a fresh schema on the test PostgreSQL server (test/support/postgres.ts).
 */
export type StoreKind = "memory" | "sqlite" | "async-memory" | "postgres"

export interface TestServer {
  readonly engine: Engine
  readonly server: RunningServer
  readonly origin: string
  /** Sends a request and checks the response against the reference OpenAPI. */
  readonly request: (method: string, path: string, options?: RequestOptions) => Promise<Reply>
  readonly close: () => Promise<void>
}

/**
 * Sends requests to `origin` (with `auth` unless a request names its own or `null`) and checks each
 * response against the reference OpenAPI, recording its status for the coverage report; a 500 fails.
 */
export const checkedRequester =
  (origin: string, auth: string) =>
  async (method: string, path: string, o: RequestOptions = {}): Promise<Reply> => {
    const headers: Record<string, string> = { ...(o.headers ?? {}) }
    if (o.auth !== null) headers["authorization"] ??= o.auth ?? auth
    let body: string | Uint8Array | FormData | undefined = o.raw ?? o.form
    if (body === undefined && o.body !== undefined) {
      body = JSON.stringify(o.body)
      headers["content-type"] ??= "application/json"
    }
    const res = await fetch(origin + path, { method, headers, ...(body === undefined ? {} : { body: body as BodyInit }) })
    const text = await res.text()
    const parsed = text === "" ? undefined : JSON.parse(text)
    const operationId = operationFor(method, path)
    recordStatus(operationId, res.status)
    const check = checkResponse(operationId, res.status, parsed)
    expect(check.problems, `${origin} ${method} ${path} → ${res.status} ${text.slice(0, 300)}`).toEqual([])
    expect(res.status, `${method} ${path} must never be a 500: ${text}`).toBeLessThan(500)
    return { status: res.status, headers: res.headers, body: parsed }
  }

export const startTestServer = async (
  kind: StoreKind,
  options: { readonly filename?: string; readonly clock?: "real" | "virtual"; readonly pgSchema?: string } = {}
): Promise<TestServer> => {
  const dir = kind === "sqlite" && options.filename === undefined ? mkdtempSync(join(tmpdir(), "tessera-")) : undefined
  const filename = options.filename ?? (dir === undefined ? undefined : join(dir, "t.sqlite"))
  const store =
    kind === "memory"
      ? MemoryStore.layer
      : kind === "async-memory"
        ? AsyncMemoryStore.layer
        : kind === "postgres"
          ? options.pgSchema === undefined
            ? freshPostgresLayer("http")
            : postgresLayer(options.pgSchema)
          : SqliteStore.layer({ filename: filename! })
  // Engine.make awaits asynchronous layers; memory and SQLite are ready at once either way.
  const engine = await Engine.make({ store, clock: options.clock ?? "real" })
  await engine.platform({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET })
  const server = await serve({ engine, port: 0 })
  const origin = `http://127.0.0.1:${server.port}`
  const request = checkedRequester(origin, basic())
  return {
    engine,
    server,
    origin,
    request,
    close: async () => {
      await server.close()
      await engine.dispose()
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
    }
  }
}

export const individual = (over: Record<string, unknown> = {}) => ({
  customerType: "INDIVIDUAL" as const,
  fullName: "Jane Smith",
  email: "jane@example.com",
  birthDate: "1990-01-15",
  nationality: "US",
  ...over
})

export const business = (over: Record<string, unknown> = {}) => ({
  customerType: "BUSINESS" as const,
  email: "finance@acme.com",
  businessInfo: { legalName: "Acme Corp", country: "US", taxId: "47-1234567", incorporatedOn: "2018-03-14", registrationNumber: "5523041" },
  ...over
})
