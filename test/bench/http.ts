import { spawn, type ChildProcess } from "node:child_process"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import autocannon from "autocannon"
import { build } from "esbuild"

const here = dirname(fileURLToPath(import.meta.url))
const AUTH = `Basic ${Buffer.from("bench:bench-secret").toString("base64")}`

// The target runs as an esbuild bundle, as `tessera serve` does (bin/tessera.mjs): under tsx's
// loader every closure is wrapped by keepNames helpers, which costs about a quarter of the
// throughput and is not what a user of the server runs.
const targetBundle = join(here, "dist", "http-target.mjs")
export const buildTarget = () =>
  build({
    entryPoints: [join(here, "http-target.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile: targetBundle,
    external: ["better-sqlite3", "autocannon"],
    banner: { js: "import { createRequire as __r } from 'node:module'; const require = __r(import.meta.url);" },
    logLevel: "warning"
  })

export const startTarget = (kind: string) =>
  new Promise<{ child: ChildProcess; port: number; customerId: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [targetBundle, kind], { stdio: ["ignore", "pipe", "inherit"] })
    let out = ""
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString()
      const m = /READY (\d+) (\S+)/.exec(out)
      if (m) resolve({ child, port: Number(m[1]), customerId: m[2]! })
    })
    child.on("error", reject)
  })

const load = (opts: autocannon.Options) =>
  new Promise<autocannon.Result>((resolve, reject) =>
    autocannon({ connections: 10, duration: Number(process.env["BENCH_SECONDS"] ?? 5), ...opts }, (err, res) => (err ? reject(err) : resolve(res)))
  )

export interface HttpFigure {
  readonly name: string
  readonly reqPerSec: number
  readonly p99Ms: number
  readonly non2xx: number
}

const measure = async (name: string, kind: string, request: (t: { port: number; customerId: string }) => autocannon.Options) => {
  const t = await startTarget(kind)
  try {
    await load({ ...request(t), duration: 1 }) // warm-up
    const r = await load(request(t))
    return { name, reqPerSec: Math.round(r.requests.average), p99Ms: r.latency.p99, non2xx: r.non2xx } satisfies HttpFigure
  } finally {
    t.child.kill("SIGTERM")
  }
}

const createBody = JSON.stringify({ customerType: "INDIVIDUAL", fullName: "Load Test" })

export const httpBench = async () => {
  await buildTarget()
  const get = (t: { port: number; customerId: string }): autocannon.Options => ({
    url: `http://127.0.0.1:${t.port}/2025-10-13/customers/${t.customerId}`,
    headers: { authorization: AUTH }
  })
  const post = (t: { port: number }): autocannon.Options => ({
    url: `http://127.0.0.1:${t.port}/2025-10-13/customers`,
    method: "POST",
    headers: { authorization: AUTH, "content-type": "application/json" },
    body: createBody
  })
  const bareGet = await measure("bare node:http GET (baseline)", "bare", get)
  const sqliteGet = await measure("tessera GET /customers/{id} (SQLite)", "tessera-sqlite", get)
  const memoryGet = await measure("tessera GET /customers/{id} (memory)", "tessera-memory", get)
  const barePost = await measure("bare node:http POST (baseline)", "bare", post)
  const sqlitePost = await measure("tessera POST /customers (SQLite, synchronous=FULL)", "tessera-sqlite", post)
  const memoryPost = await measure("tessera POST /customers (memory)", "tessera-memory", post)
  const ratio = (a: HttpFigure, b: HttpFigure) => Math.round((a.reqPerSec / b.reqPerSec) * 1000) / 1000
  return {
    results: [bareGet, sqliteGet, memoryGet, barePost, sqlitePost, memoryPost],
    ratios: {
      getSqliteVsBare: ratio(sqliteGet, bareGet),
      getMemoryVsBare: ratio(memoryGet, bareGet),
      postSqliteVsBare: ratio(sqlitePost, barePost),
      postMemoryVsBare: ratio(memoryPost, barePost)
    },
    target: { getVsBare: 0.3 }
  }
}
