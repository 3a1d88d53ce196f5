import { closeSync, fdatasyncSync, mkdtempSync, openSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Database from "better-sqlite3"
import { createCustomer } from "@tessera/core/operations"
import { makeEngine } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { SqliteStore } from "@tessera/adapter-sqlite"
import { captureSqliteStatements } from "./capture.ts"
import { makeReplay } from "./replay.ts"
import { CLIENTS, compare, interleaved, median, ROUNDS, SECONDS } from "./rounds.ts"
import { applyPragmas } from "./statement-log.ts"

const tmp = () => mkdtempSync(join(tmpdir(), "tessera-bench-"))

const body = (i: number) => ({ customerType: "INDIVIDUAL", fullName: `Person ${i}`, email: `p${i}@example.com` })

/** An engine and a measure of its creations per second through the synchronous path (no HTTP). */
const engineCreations = async (store: "memory" | "sqlite") => {
  const engine = makeEngine({ store: store === "memory" ? MemoryStore.layer : SqliteStore.layer({ filename: join(tmp(), "e.sqlite") }) })
  const platform = await engine.platform({ clientId: "b", clientSecret: "s" })
  let n = 0
  for (; n < 200; n++) engine.runSync(createCustomer(platform, body(n)))
  const measure = async (seconds: number) => {
    const start = performance.now()
    const first = n
    while (performance.now() - start < seconds * 1000) for (let k = 0; k < 100; k++) engine.runSync(createCustomer(platform, body(n++)))
    return (n - first) / ((performance.now() - start) / 1000)
  }
  return { measure, dispose: () => engine.dispose() }
}

/**
 * Baseline: the SQLite store's own statements for the same creations (capture.ts), replayed raw,
 * with the syncs an in-process caller pays. The log was taken from concurrent HTTP creations,
 * which share their log syncs (group commit); `engine.runSync` syncs each commit itself
 * (DECISIONS #315), so the replay tops the logged syncs up to one per creation.
 */
const rawSqliteInserts = async () => {
  const { create } = await captureSqliteStatements(CLIENTS)
  const db = new Database(create.file)
  applyPragmas(db, create.pragmas)
  const replay = makeReplay(db, create.plan, `${create.file}-wal`)
  const logged = create.plan.calls.filter((c) => c.kind === "fsync").length
  const extraSyncs = Math.max(0, create.creationsPerReplay - logged)
  const wal = openSync(`${create.file}-wal`, "r")
  const measure = async (seconds: number) => {
    let n = 0
    const start = performance.now()
    while (performance.now() - start < seconds * 1000) {
      replay.run()
      for (let k = 0; k < extraSyncs; k++) fdatasyncSync(wal)
      n += create.creationsPerReplay
    }
    return n / ((performance.now() - start) / 1000)
  }
  return { measure, dispose: async () => (replay.close(), db.close(), closeSync(wal)) }
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
  const parts = { memory: await engineCreations("memory"), sqlite: await engineCreations("sqlite"), raw: await rawSqliteInserts() }
  // Interleaved rounds like the HTTP targets; the memory figure is the median of its rounds.
  for (const p of Object.values(parts)) await p.measure(SECONDS / 5) // warm-up
  const samples = await interleaved(Object.keys(parts) as Array<keyof typeof parts>, ROUNDS, (name) => parts[name].measure(SECONDS))
  for (const p of Object.values(parts)) await p.dispose()
  const sqliteVsRaw = compare(samples, "sqlite", "raw")

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
      memory: Math.round(median(samples.memory)),
      memorySamples: samples.memory.map(Math.round),
      target: { memory: 50_000 },
      sqlite: sqliteVsRaw.tessera,
      rawBetterSqlite3Baseline: sqliteVsRaw.baseline,
      sqliteVsRaw: sqliteVsRaw.ratio,
      baselineNote: "the statements the SQLite store ran for the same creations, replayed raw, with one log sync per creation as engine.runSync pays"
    },
    engineCreation: { memory: engineCreate, sqlite: sqliteEngineCreate, targetMs: 5 },
    fork: { worldOf1000Customers: fork, forkPlusEngine: forkEngine }
  }
}
