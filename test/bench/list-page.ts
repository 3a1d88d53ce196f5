import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Database from "better-sqlite3"
import { Effect } from "effect"
import { createCustomer, listCustomers } from "@tessera/core/operations"
import { makeEngine, Store } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { SqliteStore } from "@tessera/adapter-sqlite"
import { medianMs } from "./median.ts"

const tmp = () => mkdtempSync(join(tmpdir(), "tessera-bench-list-"))
const body = (i: number) => ({ customerType: "INDIVIDUAL", fullName: `Person ${i}`, platformCustomerId: `pc-${i}` })
const QUERY = { limit: "20" }
const RUNS = 300

const median = (f: () => unknown): number => medianMs(f, RUNS)

/** `GET /customers?limit=20` through the engine (decode, list, view), with `customers` customers. */
const enginePage = async (store: "memory" | "sqlite", customers: number) => {
  const engine = makeEngine({ store: store === "memory" ? MemoryStore.layer : SqliteStore.layer({ filename: join(tmp(), "l.sqlite") }) })
  const platform = await engine.platform({ clientId: "b", clientSecret: "s" })
  // Seeded in batches of one transaction each: the figure is the page, not the seeding.
  for (let from = 0; from < customers; from += 10_000)
    engine.runSync(
      Effect.flatMap(Store, (s) =>
        s.transaction(Effect.forEach(Array.from({ length: Math.min(10_000, customers - from) }, (_, k) => from + k), (i) => createCustomer(platform, body(i)), { discard: true }))
      )
    )
  const first = engine.runSync(listCustomers(platform, QUERY))
  if (first.data.length !== 20 || first.totalCount !== customers) throw new Error(`bad page: ${first.data.length} of ${first.totalCount}`)
  const ms = median(() => engine.runSync(listCustomers(platform, QUERY)))
  await engine.dispose()
  return ms
}

/**
 * Baseline: raw better-sqlite3, one table of customers with an index on (deleted, seq): the same
 * page (21 rows after a position, parsed) with its total read from a counter row, as the store
 * does, and with `count(*)` over the index instead.
 */
const rawPage = (customers: number) => {
  const db = new Database(join(tmp(), "raw.sqlite"))
  db.pragma("journal_mode = WAL")
  db.exec("CREATE TABLE c (seq INTEGER PRIMARY KEY, deleted INTEGER NOT NULL, data TEXT NOT NULL)")
  db.exec("CREATE INDEX c_live ON c (deleted, seq)")
  db.exec("CREATE TABLE counts (name TEXT PRIMARY KEY, n INTEGER NOT NULL)")
  const ins = db.prepare("INSERT INTO c (deleted, data) VALUES (0, ?)")
  db.transaction(() => {
    for (let i = 0; i < customers; i++) ins.run(JSON.stringify({ id: `Customer:${i}`, ...body(i), isDeleted: false }))
    db.prepare("INSERT INTO counts VALUES ('live', ?)").run(customers)
  })()
  const page = db.prepare<[number], { data: string }>("SELECT data FROM c WHERE deleted = 0 AND seq > ? ORDER BY seq LIMIT 21")
  const counter = db.prepare("SELECT n FROM counts WHERE name = 'live'").pluck()
  const countAll = db.prepare("SELECT count(*) FROM c WHERE deleted = 0").pluck()
  const withCounter = median(() => [page.all(0).map((r) => JSON.parse(r.data)), counter.get()])
  const withCountStar = median(() => [page.all(0).map((r) => JSON.parse(r.data)), countAll.get()])
  db.close()
  return { withCounter, withCountStar }
}

/** One list page at 1,000 and at 100,000 customers, each store, beside the raw baseline (median ms). */
export const listPageBench = async () => {
  const sizes = [1_000, 100_000] as const
  const out: Record<string, unknown> = { query: "GET /customers?limit=20 (in-process, through the engine)", runs: RUNS }
  for (const store of ["memory", "sqlite"] as const) {
    const [small, large] = [await enginePage(store, sizes[0]), await enginePage(store, sizes[1])]
    out[store] = { at1000Ms: small, at100000Ms: large, ratio: Math.round((large / small) * 100) / 100, targetRatio: 2 }
  }
  const [rawSmall, rawLarge] = [rawPage(sizes[0]), rawPage(sizes[1])]
  out["rawBetterSqlite3Baseline"] = { at1000Ms: rawSmall, at100000Ms: rawLarge }
  return out
}
