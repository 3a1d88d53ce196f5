import { closeSync, fdatasyncSync, mkdtempSync, openSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import Database from "better-sqlite3"
import { createCustomer } from "@tessera/core/operations"
import { Effect } from "effect"
import { makeEngine, Store } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { SqliteStore } from "@tessera/adapter-sqlite"
import { captureSqliteStatements } from "./capture.ts"
import { rawMapsCreations, readEveryIndex, recordsOf } from "./raw-maps.ts"
import { makeReplay } from "./replay.ts"
import { CLIENTS, compare, interleaved, median, ROUNDS, SECONDS, SHORT } from "./rounds.ts"
import { applyPragmas, type LoggedCall } from "./statement-log.ts"

const tmp = () => mkdtempSync(join(tmpdir(), "tessera-bench-"))

const body = (i: number) => ({ customerType: "INDIVIDUAL", fullName: `Person ${i}`, email: `p${i}@example.com` })

/** One measurement of creations: the wall rate, CPU time per creation and the store's size while it ran. */
interface Sample {
  readonly perSec: number
  readonly cpuUsPerCreation: number
  /** Customers the store held when the measurement started and when it ended. */
  readonly customers: readonly [number, number]
  /** Records of every collection the store held at the end (a creation writes three). */
  readonly records: number
}

const cpuUs = () => {
  const c = process.cpuUsage()
  return c.user + c.system
}

/**
 * An engine creating customers through the synchronous path (no HTTP), its world growing with
 * every creation across warm-up and rounds, as an integrator's long loop would.
 */
const growingCreations = async (store: "memory" | "sqlite") => {
  const handle = store === "memory" ? MemoryStore.make() : undefined
  const engine = makeEngine({ store: handle?.layer ?? SqliteStore.layer({ filename: join(tmp(), "e.sqlite") }) })
  const platform = await engine.platform({ clientId: "b", clientSecret: "s" })
  let n = 0
  for (; n < 200; n++) engine.runSync(createCustomer(platform, body(n)))
  const samples: Array<Sample> = []
  const measure = async (seconds: number) => {
    const first = n
    const cpu = cpuUs()
    const start = performance.now()
    while (performance.now() - start < seconds * 1000) for (let k = 0; k < 100; k++) engine.runSync(createCustomer(platform, body(n++)))
    const perSec = (n - first) / ((performance.now() - start) / 1000)
    samples.push({ perSec, cpuUsPerCreation: (cpuUs() - cpu) / (n - first), customers: [first, n], records: handle?.recordCount() ?? Number.NaN })
    return perSec
  }
  return { measure, samples, dispose: () => engine.dispose() }
}

/**
 * Creations while the memory store holds about `customers` customers: the world is seeded to
 * that size and snapshotted; each batch of creations (a tenth of the size, at least 100) starts
 * from the snapshot, restored untimed, so the store holds between `customers` and 1.1 × that
 * while the clock runs. The rate counts the batches' time only.
 */
const fixedWorldCreations = async (customers: number) => {
  const handle = MemoryStore.make()
  const engine = makeEngine({ store: handle.layer })
  const platform = await engine.platform({ clientId: "b", clientSecret: "s" })
  let n = 0
  // Seeded in transactions of 10,000 (as list-page.ts): the figure is the creations after.
  while (n < customers) {
    const from = n
    const to = Math.min(customers, from + 10_000)
    engine.runSync(Effect.flatMap(Store, (s) => s.transaction(Effect.forEach(Array.from({ length: to - from }, (_, k) => from + k), (i) => createCustomer(platform, body(i)), { discard: true }))))
    n = to
  }
  // Every index read once, so the store keeps all of them, as the baseline does (DECISIONS #532).
  engine.runSync(readEveryIndex(recordsOf(handle.snapshot())))
  const world = handle.snapshot()
  const batch = Math.max(100, Math.floor(customers / 10))
  // Warm-up: the same code paths at this size before anything is timed.
  for (let k = 0; k < batch; k++) engine.runSync(createCustomer(platform, body(n++)))
  // The baseline writes the world's records and the warm-up's new ones into plain Maps (raw-maps.ts).
  const seed = recordsOf(world)
  const lastSeq = seed.length === 0 ? 0 : seed[seed.length - 1]!.seq
  const created = recordsOf(handle.snapshot()).filter((r) => r.seq > lastSeq)
  const raw = rawMapsCreations(seed, created, created.length / batch)
  const samples: Array<Sample> = []
  const measure = async (seconds: number) => {
    let created = 0
    let wallMs = 0
    let cpu = 0
    let records = 0
    const until = performance.now() + seconds * 1000
    while (performance.now() < until) {
      handle.restore(world)
      const c0 = cpuUs()
      const t0 = performance.now()
      for (let k = 0; k < batch; k++) engine.runSync(createCustomer(platform, body(n++)))
      wallMs += performance.now() - t0
      cpu += cpuUs() - c0
      created += batch
      records = handle.recordCount()
    }
    const perSec = created / (wallMs / 1000)
    samples.push({ perSec, cpuUsPerCreation: cpu / created, customers: [customers, customers + batch], records })
    return perSec
  }
  return { measure, raw, samples, dispose: () => engine.dispose() }
}

/** Median rate and CPU per creation of a figure's samples, with the store's size as it was measured. */
const summary = (samples: ReadonlyArray<Sample>) => ({
  perSec: Math.round(median(samples.map((s) => s.perSec))),
  cpuUsPerCreation: Math.round(median(samples.map((s) => s.cpuUsPerCreation)) * 100) / 100,
  samples: samples.map((s) => ({
    perSec: Math.round(s.perSec),
    cpuUsPerCreation: Math.round(s.cpuUsPerCreation * 100) / 100,
    customersHeld: `${s.customers[0]}–${s.customers[1]}`,
    recordsHeldAtEnd: s.records
  }))
})

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
  // The log holds whole groups, one SQLite transaction each with a savepoint per creation
  // (DECISIONS #480); `runSync` commits each creation on its own, so the baseline does too.
  const plan = { ...create.plan, calls: oneTransactionPerCreation(create.plan.calls) }
  const replay = makeReplay(db, plan, `${create.file}-wal`)
  const logged = plan.calls.filter((c) => c.kind === "fsync").length
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

/** A log of groups as the synchronous path runs it: each savepoint its own transaction. */
const oneTransactionPerCreation = (calls: ReadonlyArray<LoggedCall>): Array<LoggedCall> => {
  const grouped = calls.some((c) => c.sql.startsWith("SAVEPOINT"))
  if (!grouped) return [...calls]
  const out: Array<LoggedCall> = []
  for (const c of calls) {
    if (c.sql === "BEGIN IMMEDIATE" || c.sql === "COMMIT") continue
    if (c.sql.startsWith("SAVEPOINT")) out.push({ ...c, sql: "BEGIN IMMEDIATE" })
    else if (c.sql.startsWith("RELEASE")) out.push({ ...c, sql: "COMMIT" })
    else if (c.sql.startsWith("ROLLBACK TO")) throw new Error("statement log: a creation rolled back")
    else out.push(c)
  }
  return out
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

/**
 * A full garbage collection, run between phases and never inside a timed part: a disposed
 * world is unreachable but not yet collected, and without this the next phase pays its
 * collection (the faster the build, the larger the world it grew, the more it pays). With it
 * each fixed size is measured alone in the heap, as #420 says it is (DECISIONS #454).
 */
const collectGarbage: () => void = (() => {
  setFlagsFromString("--expose-gc")
  return runInNewContext("gc") as () => void
})()

// Short mode (CI) keeps every figure but at sizes it can seed in a moment.
const SIZES = SHORT ? [500, 1_000, 2_000] : [1_000, 10_000, 100_000]

/**
 * The growing worlds, memory and SQLite, interleaved with the raw baseline. A function of its
 * own so that its worlds are unreachable once it returns: an async function's locals live as
 * long as it runs, and a world of ~800,000 customers kept beside the fixed sizes measured next
 * made their scavenges ~1.6× as long (DECISIONS #488).
 */
const growingPhase = async () => {
  const parts = { memory: await growingCreations("memory"), sqlite: await growingCreations("sqlite"), raw: await rawSqliteInserts() }
  // Interleaved rounds like the HTTP targets; the memory figure is the median of its rounds.
  for (const p of Object.values(parts)) await p.measure(SECONDS / 5) // warm-up
  for (const p of [parts.memory, parts.sqlite]) p.samples.length = 0
  const samples = await interleaved(Object.keys(parts) as Array<keyof typeof parts>, ROUNDS, (name) => parts[name].measure(SECONDS))
  for (const p of Object.values(parts)) await p.dispose()
  return { sqliteVsRaw: compare(samples, "sqlite", "raw"), growing: summary(parts.memory.samples) }
}

export const inProcessBench = async () => {
  const { sqliteVsRaw, growing } = await growingPhase()
  // Each fixed size alone in the heap (the others, and the growing world, are gone): a world of
  // 1,000 customers beside one of 100,000 would pay the larger one's garbage collection.
  const atSize: Record<string, ReturnType<typeof summary> & { readonly rawMapsBaseline: number; readonly vsRawMaps: number }> = {}
  for (const size of SIZES) {
    collectGarbage()
    const fixed = await fixedWorldCreations(size)
    await fixed.measure(SECONDS / 5) // warm-up
    await fixed.raw(SECONDS / 5)
    collectGarbage() // the seeding's garbage too
    fixed.samples.length = 0
    const rounds = await interleaved(["tessera", "raw"] as const, ROUNDS, (name) => (name === "tessera" ? fixed.measure(SECONDS) : fixed.raw(SECONDS)))
    const vsRaw = compare(rounds, "tessera", "raw")
    atSize[String(size)] = { ...summary(fixed.samples), rawMapsBaseline: vsRaw.baseline, vsRawMaps: vsRaw.ratio }
    await fixed.dispose()
  }

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
      // The world grows through warm-up and rounds (each sample says how large it was).
      memory: growing.perSec,
      memoryGrowing: growing,
      // The same creations while the store holds about 1k, 10k and 100k customers.
      memoryAtCustomers: atSize,
      target: { memory: 50_000 },
      meetsTarget: { growing: growing.perSec >= 50_000, ...Object.fromEntries(Object.entries(atSize).map(([k, v]) => [k, v.perSec >= 50_000])) },
      sqlite: sqliteVsRaw.tessera,
      rawBetterSqlite3Baseline: sqliteVsRaw.baseline,
      sqliteVsRaw: sqliteVsRaw.ratio,
      baselineNote: "the statements the SQLite store ran for the same creations, replayed raw, with one log sync per creation as engine.runSync pays",
      memoryBaselineNote: "memoryAtCustomers: rawMapsBaseline is the same records (the world's, then a batch's new ones) written into plain Maps by id and by index key, a lookup before each write, in rounds interleaved with Tessera's (raw-maps.ts); vsRawMaps is the median of the per-round ratios; every index of the world is read once before it is timed, so the store keeps all of them, as the baseline does. memoryGrowing only creates: the memory store builds a list filter's index at its first read (DECISIONS #532), and nothing reads"
    },
    engineCreation: { memory: engineCreate, sqlite: sqliteEngineCreate, targetMs: 5 },
    fork: { worldOf1000Customers: fork, forkPlusEngine: forkEngine }
  }
}
