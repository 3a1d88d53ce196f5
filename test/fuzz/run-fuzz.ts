import { Agent } from "node:http"
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { repoRoot } from "../support/paths.ts"
import { check, failureOf, type Failure, learn, send } from "./drive.ts"
import { Pool } from "./pool.ts"
import { Corpus, Rand } from "./random.ts"
import { nextRequest } from "./requests.ts"
import { fuzzKeys } from "./valid.ts"

export interface FuzzOptions {
  readonly requests: number
  readonly seed: number
  readonly concurrency: number
  /** Per-request client timeout; a request that takes longer counts as unanswered. */
  readonly timeoutMs?: number
}

export interface FuzzReport {
  readonly seed: number
  readonly requests: number
  readonly concurrency: number
  readonly statuses: Readonly<Record<string, number>>
  /** Statuses of the requests made from each route's template (valid or mutated), by operationId. */
  readonly byOperation: Readonly<Record<string, Readonly<Record<string, number>>>>
  readonly latencyMs: { readonly p50: number; readonly p99: number; readonly max: number }
  readonly rssMb: { readonly before: number; readonly after: number }
  readonly seconds: number
  readonly failures: ReadonlyArray<Failure>
  /** Failures beyond the first `keep` are counted, not kept. */
  readonly failureCount: number
  /** How the server ended after the run: its exit code on SIGTERM, and how long that took. */
  readonly shutdown: { readonly code: number | null; readonly ms: number }
  /** Anything the server wrote on stderr (an unexpected error prints there). */
  readonly stderr: string
}

const CLI = join(repoRoot, "packages/cli/bin/tessera.mjs")
const CLIENT_ID = "fuzz-client"
const CLIENT_SECRET = "fuzz-secret-0123456789"

/** The real standalone server, as a user starts it, on a throwaway SQLite file with the virtual clock. */
const startServer = async (dir: string) => {
  const env: Record<string, string> = {}
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("TESSERA_") && k !== "PORT" && k !== "HOST") env[k] = v
  Object.assign(env, { TESSERA_LOG: "off", TESSERA_CLIENT_SECRET: CLIENT_SECRET })
  const args = [CLI, "serve", "--port", "0", "--db", join(dir, "fuzz.sqlite"), "--clock", "virtual", "--client-id", CLIENT_ID]
  const child = spawn(process.execPath, args, { env, cwd: dir, stdio: ["ignore", "pipe", "pipe"] })
  let out = ""
  let err = ""
  child.stderr.on("data", (d: Buffer) => (err = (err + d.toString()).slice(-20_000)))
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString()
      const m = /listening on http:\/\/[^:]+:(\d+)/.exec(out)
      if (m !== null && /ready in \d+ ms/.test(out)) resolve(Number(m[1]))
    })
    child.once("exit", (code) => reject(new Error(`server exited ${code} before it was ready: ${err}`)))
  })
  child.stdout.resume()
  return { child, port, stderr: () => err }
}

const rssMb = (child: ChildProcess): number => {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1]
    return kb === undefined ? NaN : Math.round(Number(kb) / 102.4) / 10
  } catch {
    return NaN
  }
}

const percentile = (sorted: ReadonlyArray<number>, p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0

/**
 * Drives the server with `requests` generated requests from `seed`, `concurrency` at a time,
 * checks every answer, then stops the server with SIGTERM and reports.
 */
export const runFuzz = async (o: FuzzOptions, keep = 50): Promise<FuzzReport> => {
  const dir = mkdtempSync(join(tmpdir(), "tessera-fuzz-"))
  const server = await startServer(dir)
  const exited = new Promise<number | null>((resolve) => server.child.once("exit", (code) => resolve(code)))
  let crashed = false
  server.child.once("exit", () => (crashed = true))
  const r = new Rand(o.seed)
  const ctx = { r, c: new Corpus(r), pool: new Pool(), keys: fuzzKeys(o.seed) }
  const auth = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString("base64")}`
  const agent = new Agent({ keepAlive: true, maxSockets: o.concurrency })
  const statuses: Record<string, number> = {}
  const byOperation: Record<string, Record<string, number>> = {}
  const latencies: Array<number> = []
  const failures: Array<Failure> = []
  let failureCount = 0
  let sent = 0
  const before = rssMb(server.child)
  const started = performance.now()
  const worker = async () => {
    while (sent < o.requests && !crashed) {
      sent++
      const wire = nextRequest(ctx, auth)
      const t0 = performance.now()
      const { answer, wire: sentAs } = await send(agent, "127.0.0.1", server.port, wire, o.timeoutMs ?? 10_000)
      latencies.push(performance.now() - t0)
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1
      if (wire.operationId !== undefined) {
        const tally = (byOperation[wire.operationId] ??= {})
        tally[answer.status] = (tally[answer.status] ?? 0) + 1
      }
      const problems = check(sentAs, answer)
      if (problems.length > 0 && failureCount++ < keep) failures.push(failureOf(sentAs, answer, problems))
      learn(ctx.pool, sentAs, answer)
    }
  }
  await Promise.all(Array.from({ length: o.concurrency }, worker))
  const seconds = (performance.now() - started) / 1000
  const after = rssMb(server.child)
  agent.destroy()
  const crashedDuringRun = crashed
  if (crashedDuringRun) failures.push({ problem: "the server exited during the run", request: "", status: 0, answer: server.stderr().slice(-300) })
  const t0 = performance.now()
  server.child.kill("SIGTERM")
  const code = await exited
  const shutdownMs = Math.round(performance.now() - t0)
  rmSync(dir, { recursive: true, force: true })
  latencies.sort((a, b) => a - b)
  const round = (x: number) => Math.round(x * 100) / 100
  return {
    seed: o.seed,
    requests: latencies.length,
    concurrency: o.concurrency,
    statuses,
    byOperation,
    latencyMs: { p50: round(percentile(latencies, 0.5)), p99: round(percentile(latencies, 0.99)), max: round(latencies.at(-1) ?? 0) },
    rssMb: { before, after },
    seconds: round(seconds),
    failures,
    failureCount: failureCount + (crashedDuringRun ? 1 : 0),
    shutdown: { code, ms: shutdownMs },
    stderr: server.stderr()
  }
}
