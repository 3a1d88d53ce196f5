// What the baselines copy from Tessera: response bytes (from the server being measured) and the
// SQLite store's statements (from an in-process server on a logged database handle).
import { mkdtempSync } from "node:fs"
import { request } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { makeEngine } from "@tessera/core"
import { stamp } from "@tessera/core/testing"
import { SqliteStore } from "@tessera/adapter-sqlite"
import { serve } from "@tessera/adapter-http"
import { jsonClient, loggedInWallet } from "./http-client.ts"
import { knownUuids, planReplay, type ReplayPlan } from "./replay.ts"
import { connectionPragmas, logStatements } from "./statement-log.ts"

/** One response as Tessera sent it: status, raw header pairs in order, body text. */
export interface CapturedResponse {
  readonly status: number
  readonly headers: ReadonlyArray<readonly [string, string]>
  readonly body: string
}

/** The statements of one signed flow on the SQLite store, to run on a copy of its database. */
export interface SqliteFlow {
  /** A copy of the store's database as it was before the logged flow. */
  readonly file: string
  readonly pragmas: Record<string, unknown>
  readonly plan: ReplayPlan
  /** How many of the plan's calls the first leg made (the rest are the retry's). */
  readonly leg1Calls: number
  /** The uuid of the logged flow's request id. */
  readonly requestUuid: string
}

/** What the bare server answers (bare-server.ts), written by the bench as a JSON file. */
export interface BareConfig {
  readonly get: CapturedResponse
  readonly post: CapturedResponse
  readonly flow?: {
    readonly leg1: CapturedResponse
    readonly leg2: CapturedResponse
    readonly payloadToSign: string
    readonly requestId: string
    readonly sqlite?: SqliteFlow
  }
}

export const AUTH = `Basic ${Buffer.from("bench:bench-secret").toString("base64")}`
export const API = "/2025-10-13"

/** One response exactly as sent: status, raw header pairs, body. */
export const rawResponse = (port: number, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  new Promise<CapturedResponse>((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body)
    const req = request(
      { host: "127.0.0.1", port, method, path: `${API}${path}`, headers: { authorization: AUTH, ...(data ? { "content-type": "application/json" } : {}), ...headers } },
      (res) => {
        const chunks: Array<Buffer> = []
        res.on("data", (c: Buffer) => chunks.push(c))
        res.on("end", () => {
          const pairs: Array<readonly [string, string]> = []
          for (let i = 0; i < res.rawHeaders.length; i += 2) pairs.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!])
          resolve({ status: res.statusCode!, headers: pairs, body: Buffer.concat(chunks).toString("utf8") })
        })
      }
    )
    req.on("error", reject)
    req.end(data)
  })

/** Status, header count, header bytes and body bytes: what "the same bytes" compares. */
export const shape = (r: CapturedResponse) => ({
  status: r.status,
  headers: r.headers.length,
  headerBytes: r.headers.reduce((n, [k, v]) => n + k.length + v.length + 4, 0),
  bodyBytes: Buffer.byteLength(r.body)
})

export const customerBody = (email: string) => ({ customerType: "INDIVIDUAL", fullName: "Load Test", email })

/** The raw loop's work: the statements of `clients` POST /customers arriving together. */
export interface CreatePlan {
  readonly file: string
  readonly pragmas: Record<string, unknown>
  readonly plan: ReplayPlan
  readonly creationsPerReplay: number
}

/**
 * Runs an in-process Tessera HTTP server on the SQLite store, statements logged, and logs
 * (1) `clients` concurrent POST /customers with an email, (2) one signed-retry flow (PATCH an
 * internal account: 202, then the stamped retry: 200). Each log starts from a copy of the
 * database taken just before it, which the replay runs on.
 */
const capture = async (clients: number): Promise<{ create: CreatePlan; flow: SqliteFlow }> => {
  const dir = mkdtempSync(join(tmpdir(), "tessera-bench-capture-"))
  const filename = join(dir, "store.sqlite")
  const logger = logStatements(filename)
  // The store as `tessera serve` builds it; the logger sees its connection's statements.
  const engine = makeEngine({ store: SqliteStore.layer({ filename }) })
  await engine.platform({ clientId: "bench", clientSecret: "bench-secret" })
  const raw = logger.connection()
  const server = await serve({ engine, port: 0 })
  const { call, close } = jsonClient(server.port, clients)
  try {
    const snapshot = async (name: string) => {
      const file = join(dir, name)
      await raw.backup(file)
      return { file, known: knownUuids(raw) }
    }
    // Enough records that rowids (seq) are not confused with the counters' small rowids.
    for (let i = 0; i < 200; i++) await call("POST", "/customers", customerBody(`seed${i}@example.com`))
    const posts = () => Promise.all(Array.from({ length: clients }, (_, i) => call("POST", "/customers", customerBody(`load${i}@example.com`))))
    await posts()
    const c = await snapshot("create.sqlite")
    const createCalls = await logger.record(posts)

    const { account, tek } = await loggedInWallet(call, "capture@example.com")
    const patch = { privateEnabled: true }
    const flow = async () => {
      const leg1 = await call("PATCH", `/internal-accounts/${account}`, patch)
      const leg2 = await call("PATCH", `/internal-accounts/${account}`, patch, { "service-wallet-signature": stamp(tek, leg1.body.payloadToSign), "request-id": leg1.body.requestId })
      if (leg1.status !== 202 || leg2.status !== 200) throw new Error(`capture flow failed: ${leg1.status} ${leg2.status}`)
      return leg1.body.requestId as string
    }
    for (let i = 0; i < 3; i++) await flow()
    const f = await snapshot("flow.sqlite")
    let leg1Calls = 0
    let requestId = ""
    const flowCalls = await logger.record(async () => {
      const leg1 = await call("PATCH", `/internal-accounts/${account}`, patch)
      leg1Calls = logger.peek().length
      requestId = leg1.body.requestId
      const leg2 = await call("PATCH", `/internal-accounts/${account}`, patch, { "service-wallet-signature": stamp(tek, leg1.body.payloadToSign), "request-id": requestId })
      if (leg2.status !== 200) throw new Error(`capture flow failed: ${leg2.status}`)
    })
    const pragmas = connectionPragmas(raw)
    return {
      create: { file: c.file, pragmas, plan: planReplay(createCalls, c.known), creationsPerReplay: clients },
      flow: { file: f.file, pragmas, plan: planReplay(flowCalls, f.known), leg1Calls, requestUuid: requestId.slice("Request:".length) }
    }
  } finally {
    close()
    await server.close()
    await engine.dispose()
    logger.uninstall()
  }
}

const captures = new Map<number, ReturnType<typeof capture>>()

/** The logs, taken once per run (the HTTP and flow benches share them). */
export const captureSqliteStatements = (clients: number) => {
  let c = captures.get(clients)
  if (c === undefined) captures.set(clients, (c = capture(clients)))
  return c
}
