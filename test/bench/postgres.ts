// `pnpm bench postgres`: the PostgreSQL store over HTTP with 1, 2 and 3 `tessera serve` instances
// on one database, beside SQLite on one instance and pgbench's simple-update rate on the same
// server; every configuration measured once per round, rounds interleaved, medians reported.
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import autocannon from "autocannon"
import { openPool } from "@tessera/adapter-postgres"
import { stamp } from "@tessera/core/testing"
import { findPgBin, startCluster, stopCluster } from "../../scripts/pg-cluster.mjs"
import { repoRoot } from "../support/paths.ts"
import { jsonClient, loggedInWallet } from "./http-client.ts"

const seconds = () => Number(process.env["BENCH_SECONDS"] ?? 5)
// BENCH_ROUNDS, 3 by default (1 in short mode).
import { ROUNDS, SHORT } from "./rounds.ts"
/** The same offered load whatever the instance count: a multiple of 1, 2 and 3. */
const CONNECTIONS = 12
const AUTH = `Basic ${Buffer.from("bench:bench-secret").toString("base64")}`
const CLI = join(repoRoot, "packages/cli/bin/tessera.mjs")

const median = (xs: ReadonlyArray<number>) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}

/** One `tessera serve` as a user runs it (the bundled CLI), the request log off. */
const serveOn = (db: string) =>
  new Promise<{ child: ChildProcess; port: number }>((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, "serve", "--port", "0", "--db", db, "--client-id", "bench"], {
      env: { ...process.env, TESSERA_CLIENT_SECRET: "bench-secret", TESSERA_LOG: "off" },
      stdio: ["ignore", "pipe", "inherit"]
    })
    let out = ""
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString()
      const m = /listening on http:\/\/[^:]+:(\d+)[\s\S]*ready in/.exec(out)
      if (m) resolve({ child, port: Number(m[1]) })
    })
    child.on("exit", (code) => reject(new Error(`tessera serve exited ${code}`)))
  })

const stopAll = (children: ReadonlyArray<ChildProcess>) =>
  Promise.all(children.map((c) => new Promise<void>((r) => (c.exitCode !== null ? r() : (c.once("exit", () => r()), c.kill("SIGTERM"))))))

const load = (opts: autocannon.Options) =>
  new Promise<autocannon.Result>((resolve, reject) => autocannon({ connections: CONNECTIONS, duration: seconds(), ...opts }, (err, res) => (err ? reject(err) : resolve(res))))

/** POST /customers spread over the instances' ports (autocannon divides the connections among them). */
const customersRate = async (ports: ReadonlyArray<number>) => {
  const opts: autocannon.Options = {
    url: ports.map((p) => `http://127.0.0.1:${p}/2025-10-13/customers`),
    method: "POST",
    headers: { authorization: AUTH, "content-type": "application/json" },
    body: JSON.stringify({ customerType: "INDIVIDUAL", fullName: "Load Test" })
  }
  await load({ ...opts, duration: SHORT ? 0.2 : 1 }) // warm-up
  const r = await load(opts)
  return { reqPerSec: Math.round(r.requests.average), p99Ms: r.latency.p99, non2xx: r.non2xx }
}

/**
 * The signed-retry flow: PATCH an internal account (202 with the payload to sign), then the
 * stamped retry (200). Each of CONNECTIONS clients has its own wallet and session, and sends the
 * retry to the instance after the one that issued the challenge, so with several instances every
 * flow crosses processes.
 */
const signedRetryRate = async (ports: ReadonlyArray<number>) => {
  const clients = ports.map((p) => jsonClient(p, CONNECTIONS))
  try {
    const { call } = clients[0]!
    const wallets = await Promise.all(
      Array.from({ length: CONNECTIONS }, (_, i) => loggedInWallet(call, `bench-${i}-${Date.now()}@example.com`))
    )
    const run = async (ms: number) => {
      let flows = 0
      let failures = 0
      const end = performance.now() + ms
      const start = performance.now()
      await Promise.all(
        wallets.map(async ({ account, tek }, w) => {
          for (let k = 0; performance.now() < end; k++) {
            const patch = { privateEnabled: k % 2 === 0 }
            const leg1 = await clients[(w + k) % clients.length]!.call("PATCH", `/internal-accounts/${account}`, patch)
            const leg2 = await clients[(w + k + 1) % clients.length]!.call("PATCH", `/internal-accounts/${account}`, patch, {
              "service-wallet-signature": stamp(tek, leg1.body.payloadToSign),
              "request-id": leg1.body.requestId
            })
            if (leg1.status === 202 && leg2.status === 200) flows++
            else failures++
          }
        })
      )
      return { flowsPerSec: Math.round(flows / ((performance.now() - start) / 1000)), failures }
    }
    await run(SHORT ? 200 : 1000) // warm-up
    return await run(seconds() * 1000)
  } finally {
    for (const c of clients) c.close()
  }
}

/** A fresh database on the server (dropped after), as the URL `--db` takes. */
const freshPgDatabase = async (serverUrl: string, name: string) => {
  const pool = openPool({ url: serverUrl, schema: "public", poolSize: 1 })
  await pool.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
  await pool.query(`CREATE DATABASE "${name}"`)
  await pool.end()
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    /** Committed and rolled-back transactions so far (read once the instances stopped: their statistics are flushed). */
    transactions: async () => {
      const p = openPool({ url: serverUrl, schema: "public", poolSize: 1 })
      const r = (await p.query("SELECT xact_commit::int AS c, xact_rollback::int AS r FROM pg_stat_database WHERE datname = $1", [name])).rows[0]
      await p.end()
      return { committed: r.c as number, rolledBack: r.r as number }
    },
    drop: async () => {
      const p = openPool({ url: serverUrl, schema: "public", poolSize: 1 })
      await p.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
      await p.end()
    }
  }
}

type Config = { readonly name: string; readonly instances: number; readonly store: "sqlite" | "postgres" }
const configs: ReadonlyArray<Config> = [
  { name: "sqlite-1", instances: 1, store: "sqlite" },
  { name: "postgres-1", instances: 1, store: "postgres" },
  { name: "postgres-2", instances: 2, store: "postgres" },
  { name: "postgres-3", instances: 3, store: "postgres" }
]

/** One configuration once: fresh database, its instances, both flows, stop. */
const measureOnce = async (c: Config, serverUrl: string, round: number) => {
  const dir = mkdtempSync(join(tmpdir(), "tessera-bench-pg-"))
  const db =
    c.store === "sqlite"
      ? { url: join(dir, "b.sqlite"), transactions: async () => undefined, drop: async () => undefined }
      : await freshPgDatabase(serverUrl, `bench_${c.name.replace("-", "_")}_${round}`)
  // The first instance creates the schema and the platform; the others then start together.
  const first = await serveOn(db.url)
  const rest = await Promise.all(Array.from({ length: c.instances - 1 }, () => serveOn(db.url)))
  const children = [first, ...rest]
  try {
    const ports = children.map((x) => x.port)
    const customers = await customersRate(ports)
    const signedRetry = await signedRetryRate(ports)
    await stopAll(children.map((x) => x.child))
    // The share of transactions PostgreSQL rolled back (serialization failures retried inside the store, #283).
    await new Promise((r) => setTimeout(r, 1000))
    const t = await db.transactions()
    const rolledBackShare = t === undefined ? undefined : Math.round((t.rolledBack / Math.max(1, t.committed + t.rolledBack)) * 1000) / 1000
    return { customers, signedRetry, rolledBackShare }
  } finally {
    await stopAll(children.map((x) => x.child))
    await db.drop()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** pgbench's built-in simple-update script (-N) on the same server, same client count. */
const pgbench = (bin: string, url: string) => {
  const out = execFileSync(bin, ["-N", "-T", String(Math.max(1, Math.round(seconds()))), "-c", String(CONNECTIONS), "-j", "2", url], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })
  const tps = /tps = ([\d.]+) \((?:without initial connection time|excluding connections establishing)\)/.exec(out)?.[1]
  if (tps === undefined) throw new Error(`pgbench printed no rate:\n${out}`)
  return Math.round(Number(tps))
}

const pgbenchBinary = () => {
  const dir = findPgBin()
  if (dir !== undefined && existsSync(join(dir, "pgbench"))) return join(dir, "pgbench")
  return "pgbench"
}

export const postgresBench = async () => {
  // The run's own server unless one is given: a throwaway cluster, stopped at the end.
  const given = process.env["TESSERA_TEST_PG_URL"]
  const cluster = given === undefined || given === "" ? startCluster() : undefined
  const serverUrl = given === undefined || given === "" ? cluster!.url : given
  await new Promise((done) => spawn(process.execPath, [CLI, "build"], { stdio: "inherit" }).on("exit", done))
  try {
    const pool = openPool({ url: serverUrl, schema: "public", poolSize: 1 })
    const settings: Record<string, string> = {}
    for (const name of ["server_version", "fsync", "synchronous_commit", "max_connections"]) settings[name] = (await pool.query(`SHOW ${name}`)).rows[0][name]
    await pool.end()
    const bin = pgbenchBinary()
    const bench = await freshPgDatabase(serverUrl, "bench_pgbench")
    execFileSync(bin, ["-i", "-q", bench.url], { stdio: ["ignore", "ignore", "pipe"] })

    const samples = new Map<string, Array<{ customers: number; p99: number; flows: number; failures: number; non2xx: number; rolledBack: number | undefined }>>()
    const pgbenchTps: Array<number> = []
    for (let round = 0; round < ROUNDS; round++) {
      // Interleaved: each round measures every configuration once, in the same order.
      pgbenchTps.push(pgbench(bin, bench.url))
      for (const c of configs) {
        const r = await measureOnce(c, serverUrl, round)
        const list = samples.get(c.name) ?? []
        list.push({ customers: r.customers.reqPerSec, p99: r.customers.p99Ms, flows: r.signedRetry.flowsPerSec, failures: r.signedRetry.failures, non2xx: r.customers.non2xx, rolledBack: r.rolledBackShare })
        samples.set(c.name, list)
      }
    }
    await bench.drop()

    const results = configs.map((c) => {
      const s = samples.get(c.name)!
      return {
        name: c.name,
        store: c.store,
        instances: c.instances,
        postCustomersPerSec: median(s.map((x) => x.customers)),
        postCustomersP99Ms: median(s.map((x) => x.p99)),
        signedRetryFlowsPerSec: median(s.map((x) => x.flows)),
        errors: s.reduce((n, x) => n + x.non2xx + x.failures, 0),
        ...(c.store === "postgres" ? { rolledBackShare: median(s.map((x) => x.rolledBack ?? 0)) } : {}),
        samples: s.map((x) => ({ customers: x.customers, flows: x.flows }))
      }
    })
    const pgbenchMedian = median(pgbenchTps)
    const pick = (name: string) => results.find((r) => r.name === name)!
    const ratio = (a: number, b: number) => Math.round((a / b) * 1000) / 1000
    return {
      server: settings,
      rounds: ROUNDS,
      secondsPerMeasurement: seconds(),
      connections: CONNECTIONS,
      pgbenchSimpleUpdateTps: { median: pgbenchMedian, samples: pgbenchTps },
      results,
      ratios: {
        postCustomersPostgres1VsPgbench: ratio(pick("postgres-1").postCustomersPerSec, pgbenchMedian),
        postCustomersPostgres1VsSqlite1: ratio(pick("postgres-1").postCustomersPerSec, pick("sqlite-1").postCustomersPerSec),
        postCustomersPostgres3VsPostgres1: ratio(pick("postgres-3").postCustomersPerSec, pick("postgres-1").postCustomersPerSec),
        signedRetryPostgres1VsSqlite1: ratio(pick("postgres-1").signedRetryFlowsPerSec, pick("sqlite-1").signedRetryFlowsPerSec),
        signedRetryPostgres3VsPostgres1: ratio(pick("postgres-3").signedRetryFlowsPerSec, pick("postgres-1").signedRetryFlowsPerSec)
      },
      note: "tessera serve processes (bundled CLI, request log off) on one database; load generator and servers share this machine's cores"
    }
  } finally {
    if (cluster !== undefined) stopCluster(cluster.dir)
  }
}
