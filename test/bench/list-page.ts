// GET /customers?limit=20 through the engine (decode the query, plan, store query, views), the
// first page and a page from the middle, at 1k, 10k and 100k customers, on memory and SQLite;
// beside the least the same page costs: on SQLite the statements the store ran for it, replayed
// on a raw connection to the same file with each row's JSON parsed; on memory a plain array of
// the same records, binary-searched and sliced.
import { join } from "node:path"
import Database from "better-sqlite3"
import { Effect } from "effect"
import { createCustomer, listCustomers } from "@tessera/core/operations"
import { makeEngine, Store } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { SqliteStore } from "@tessera/adapter-sqlite"
import { medianPerCallUs, round3, SHORT } from "./rounds.ts"
import { makeReplay } from "./replay.ts"
import { tempDir } from "./servers.ts"
import { applyPragmas, connectionPragmas, type LoggedCall, logStatements } from "./statement-log.ts"

const LIMIT = 20
const RUNS = SHORT ? 10 : 100
const medianUs = (f: () => unknown, runs: number) => medianPerCallUs(f, runs, 20)
// Short mode (CI) keeps every figure but at sizes it can seed in a moment.
const SIZES = SHORT ? [500, 1_000, 2_000] : [1_000, 10_000, 100_000]
const body = (i: number) => ({ customerType: "INDIVIDUAL", fullName: `Person ${i}`, platformCustomerId: `pc-${i}` })
const cursorOf = (seq: number) => Buffer.from(`p${seq}`).toString("base64url")
const seqOf = (cursor: string) => Number(Buffer.from(cursor, "base64url").toString().slice(1))

type Page = { data: ReadonlyArray<{ fullName?: string }>; totalCount: number; nextCursor?: string }

const seeded = async (store: "memory" | "sqlite", customers: number) => {
  const file = join(tempDir("list"), "l.sqlite")
  const logger = store === "sqlite" ? logStatements(file) : undefined
  const engine = makeEngine({ store: logger === undefined ? MemoryStore.layer : SqliteStore.layer({ filename: file }) })
  const platform = await engine.platform({ clientId: "b", clientSecret: "s" })
  const raw = logger?.connection()
  // Seeded in batches of one transaction each: the figure is the page, not the seeding.
  for (let from = 0; from < customers; from += 10_000)
    engine.runSync(
      Effect.flatMap(Store, (s) =>
        s.transaction(Effect.forEach(Array.from({ length: Math.min(10_000, customers - from) }, (_, k) => from + k), (i) => createCustomer(platform, body(i)), { discard: true }))
      )
    )
  const page = (cursor?: string) => engine.runSync(listCustomers(platform, { limit: String(LIMIT), ...(cursor === undefined ? {} : { cursor }) })) as unknown as Page
  // The middle page's cursor: positions grow by a fixed step per customer (read off the first page).
  const first = page()
  const one = engine.runSync(listCustomers(platform, { limit: "1" })) as unknown as Page
  const step = (seqOf(first.nextCursor!) - seqOf(one.nextCursor!)) / (LIMIT - 1)
  const middle = cursorOf(seqOf(one.nextCursor!) + step * (customers / 2 - 1))
  const later = page(middle)
  if (first.data.length !== LIMIT || first.totalCount !== customers || later.data[0]?.fullName !== `Person ${customers / 2}`)
    throw new Error(`bad pages at ${customers}: ${first.data.length} of ${first.totalCount}, later starts at ${later.data[0]?.fullName}`)
  // The store's statements for both pages, logged now: the wrappers come off before any timing.
  const logs = logger === undefined ? undefined : { first: await logger.record(() => page()), later: await logger.record(() => page(middle)), pragmas: connectionPragmas(raw!) }
  logger?.uninstall()
  return { engine, page, middle, logs, file }
}

/** The SQLite store's statements for one page, replayed on a raw connection, rows parsed. */
const sqliteBaseline = (file: string, calls: ReadonlyArray<LoggedCall>, pragmas: Record<string, unknown>) => {
  const db = new Database(file)
  applyPragmas(db, pragmas)
  const replay = makeReplay(db, { calls, fresh: [] }, `${file}-wal`, { parseRows: true })
  const us = medianUs(() => replay.run(), RUNS)
  db.close()
  return us
}

/** The same records in a plain array: the page after a position is a binary search and a slice. */
const memoryBaseline = (customers: number, atMiddle: boolean) => {
  const records = Array.from({ length: customers }, (_, i) => ({ seq: i + 1, value: { id: `Customer:${i}`, ...body(i), createdAt: "2026-01-01T00:00:00Z" } }))
  const after = atMiddle ? customers / 2 : 0
  return medianUs(() => {
    let lo = 0
    let hi = records.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (records[mid]!.seq <= after) lo = mid + 1
      else hi = mid
    }
    return { data: records.slice(lo, lo + LIMIT + 1).map((r) => ({ ...r.value })), totalCount: records.length }
  }, RUNS)
}

export const listPageBench = async () => {
  const out: Record<string, unknown> = { query: `GET /customers?limit=${LIMIT}, in-process through the engine`, runs: RUNS, unit: "µs per page (median of samples of 20 pages)" }
  for (const store of ["memory", "sqlite"] as const) {
    const rows: Record<string, unknown> = {}
    for (const n of SIZES) {
      const s = await seeded(store, n)
      const firstMs = medianUs(() => s.page(), RUNS)
      const laterMs = medianUs(() => s.page(s.middle), RUNS)
      const [baseFirst, baseLater] =
        s.logs !== undefined ? [sqliteBaseline(s.file, s.logs.first, s.logs.pragmas), sqliteBaseline(s.file, s.logs.later, s.logs.pragmas)] : [memoryBaseline(n, false), memoryBaseline(n, true)]
      rows[String(n)] = {
        first: { tessera: firstMs, baseline: baseFirst, ratio: round3(baseFirst / firstMs) },
        later: { tessera: laterMs, baseline: baseLater, ratio: round3(baseLater / laterMs) }
      }
      await s.engine.dispose()
    }
    out[store] = rows
  }
  out["note"] = "ratio = baseline time / Tessera time (1 = as fast as the baseline); later = the page after the middle customer; sqlite baseline = the store's own statements for the page, replayed raw, rows parsed; memory baseline = a plain array, binary search and slice"
  return out
}
