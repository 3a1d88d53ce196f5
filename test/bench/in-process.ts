import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Database from "better-sqlite3"
import { createCustomer } from "@tessera/core/operations"
import { makeEngine } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { SqliteStore } from "@tessera/adapter-sqlite"

const tmp = () => mkdtempSync(join(tmpdir(), "tessera-bench-"))

const body = (i: number) => ({ customerType: "INDIVIDUAL", fullName: `Person ${i}`, email: `p${i}@example.com` })

/** Creations per second through the engine's synchronous path (no HTTP). */
const engineCreations = async (store: "memory" | "sqlite", seconds: number) => {
  const engine = makeEngine({ store: store === "memory" ? MemoryStore.layer : SqliteStore.layer({ filename: join(tmp(), "e.sqlite") }) })
  const platform = await engine.platform({ clientId: "b", clientSecret: "s" })
  for (let i = 0; i < 200; i++) engine.runSync(createCustomer(platform, body(i)))
  let n = 0
  const start = performance.now()
  const end = start + seconds * 1000
  while (performance.now() < end) {
    for (let k = 0; k < 100; k++) engine.runSync(createCustomer(platform, body(n++)))
  }
  const perSec = n / ((performance.now() - start) / 1000)
  await engine.dispose()
  return Math.round(perSec)
}

/** Baseline: raw better-sqlite3, the same three rows per customer in one transaction, same sync setting. */
const rawSqliteInserts = (seconds: number) => {
  const db = new Database(join(tmp(), "raw.sqlite"))
  db.pragma("journal_mode = WAL")
  db.pragma("synchronous = FULL")
  db.exec("CREATE TABLE t (id TEXT PRIMARY KEY, data TEXT NOT NULL)")
  const ins = db.prepare("INSERT INTO t (id, data) VALUES (?, ?)")
  const tx = db.transaction((i: number) => {
    ins.run(`c${i}`, JSON.stringify(body(i)))
    ins.run(`w${i}`, JSON.stringify({ type: "EMBEDDED_WALLET", i }))
    ins.run(`a${i}`, JSON.stringify({ type: "EMAIL_OTP", i }))
  })
  let n = 0
  const start = performance.now()
  const end = start + seconds * 1000
  while (performance.now() < end) for (let k = 0; k < 20; k++) tx(n++)
  db.close()
  return Math.round(n / ((performance.now() - start) / 1000))
}

const timeIt = async (runs: number, f: () => unknown | Promise<unknown>) => {
  const times: Array<number> = []
  for (let i = 0; i < runs; i++) {
    const t = performance.now()
    await f()
    times.push(performance.now() - t)
  }
  times.sort((a, b) => a - b)
  return { medianMs: Math.round(times[Math.floor(runs / 2)]! * 1000) / 1000, p95Ms: Math.round(times[Math.floor(runs * 0.95)]! * 1000) / 1000 }
}

export const inProcessBench = async () => {
  const seconds = Number(process.env["BENCH_SECONDS"] ?? 5) / 2
  const memory = await engineCreations("memory", seconds)
  const sqlite = await engineCreations("sqlite", seconds)
  const raw = rawSqliteInserts(seconds)

  const engineCreate = await timeIt(200, () => makeEngine({ store: MemoryStore.layer }))
  const sqliteEngineCreate = await timeIt(20, () => makeEngine({ store: SqliteStore.layer({ filename: join(tmp(), "x.sqlite") }) }))
  const handle = MemoryStore.make()
  const engine = makeEngine({ store: handle.layer })
  const platform = await engine.platform({ clientId: "f", clientSecret: "s" })
  for (let i = 0; i < 1000; i++) engine.runSync(createCustomer(platform, body(i)))
  const fork = await timeIt(200, () => handle.fork())
  const forkEngine = await timeIt(200, () => makeEngine({ store: handle.fork().layer }))
  await engine.dispose()
  return {
    creationsPerSec: {
      memory,
      sqlite,
      rawBetterSqlite3Baseline: raw,
      sqliteVsRaw: Math.round((sqlite / raw) * 1000) / 1000,
      target: { memory: 50_000 }
    },
    engineCreation: { memory: engineCreate, sqlite: sqliteEngineCreate, targetMs: 5 },
    fork: { worldOf1000Customers: fork, forkPlusEngine: forkEngine }
  }
}
