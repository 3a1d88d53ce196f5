// Replays a statement log (statement-log.ts) on a raw better-sqlite3 connection, as many times as
// wanted, each time as a new operation: every uuid the operation made (one not in the database
// before it ran) gets a fresh value of the same length in every argument, and every rowid an
// INSERT returned is replaced by the rowid the replayed INSERT returned. Same statements, same
// rows, same index rows and counters, same bytes; none of the engine's work around them.
import { timeOrderedUuid } from "@tessera/core"
import { generatedPlatformCustomerId } from "@tessera/core/operations"
import { closeSync, fsyncSync, openSync } from "node:fs"
import type Database from "better-sqlite3"
import type { LoggedCall } from "./statement-log.ts"

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g

/** A log and the uuids to renew on each replay (plain data: it is handed to other processes as JSON). */
export interface ReplayPlan {
  readonly calls: ReadonlyArray<LoggedCall>
  readonly fresh: ReadonlyArray<string>
}

/** The uuids present in the store's tables (every other uuid in a log was made by the operation). */
export const knownUuids = (db: Database.Database): Set<string> => {
  const known = new Set<string>()
  const add = (s: unknown) => {
    if (typeof s === "string") for (const m of s.matchAll(UUID)) known.add(m[0])
  }
  for (const sql of ["SELECT id, data FROM records", "SELECT scope FROM spaces", "SELECT key FROM record_index"])
    for (const r of db.prepare(sql).iterate() as Iterable<Record<string, unknown>>) for (const v of Object.values(r)) add(v)
  return known
}

export const planReplay = (calls: ReadonlyArray<LoggedCall>, known: ReadonlySet<string>): ReplayPlan => {
  checkWhole(calls)
  const fresh = new Set<string>()
  for (const c of calls) for (const a of [c.sql, ...c.args]) if (typeof a === "string") for (const m of a.matchAll(UUID)) if (!known.has(m[0])) fresh.add(m[0])
  return { calls, fresh: [...fresh] }
}

/**
 * The store batches write transactions as savepoints of one SQLite transaction per group
 * (DECISIONS #480): a log must hold whole groups (every BEGIN ended by COMMIT or ROLLBACK, every
 * SAVEPOINT released or rolled back inside one), or the replay would do different work.
 */
const checkWhole = (calls: ReadonlyArray<LoggedCall>) => {
  let open = false
  let savepoints = 0
  for (const c of calls) {
    const sql = c.sql.trim().toUpperCase()
    if (sql.startsWith("BEGIN")) open = true
    else if (sql === "COMMIT" || sql === "ROLLBACK") [open, savepoints] = [false, 0]
    else if (sql.startsWith("SAVEPOINT")) savepoints++
    else if (sql.startsWith("RELEASE")) savepoints--
    if (savepoints > 0 && !open) throw new Error("statement log: a savepoint outside the group's transaction")
  }
  if (open || savepoints !== 0) throw new Error("statement log: it ends inside a transaction; record whole groups")
}

/** An argument as a function of this replay's fresh uuids and rowids. */
type Arg = (ids: ReadonlyArray<string>, rowids: ReadonlyMap<number, number>) => unknown

// A customer created without a platformCustomerId gets 16 hex digits of its uuid (the engine's
// `generatedPlatformCustomerId`), which its UMA address repeats: those are renewed with the
// uuid, else every replayed customer would share one key and each unique check would read all
// the customers before it.
const UUID_OR_COMPACT = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{16}/g

const compileString = (s: string, slot: ReadonlyMap<string, number>, compactSlot: ReadonlyMap<string, number>): Arg => {
  const parts: Array<string> = []
  const slots: Array<readonly [number, boolean]> = []
  let at = 0
  for (const m of s.matchAll(UUID_OR_COMPACT)) {
    const full = m[0].length === 36
    const i = (full ? slot : compactSlot).get(m[0])
    if (i === undefined) continue
    parts.push(s.slice(at, m.index))
    slots.push([i, full])
    at = m.index! + m[0].length
  }
  if (slots.length === 0) return () => s
  parts.push(s.slice(at))
  return (ids) => {
    let out = parts[0]!
    for (let k = 0; k < slots.length; k++) {
      const [i, full] = slots[k]!
      out += (full ? ids[i]! : generatedPlatformCustomerId(ids[i]!)) + parts[k + 1]!
    }
    return out
  }
}

/**
 * One replay of `plan` on `db` per call of the returned function; `walFile` is the file a logged
 * fsync syncs (the store's syncs are of its WAL). Statements are prepared once, up front.
 * `parseRows` parses the JSON `data` of every row read, as a store does to answer with it.
 */
export const makeReplay = (db: Database.Database, plan: ReplayPlan, walFile: string, options: { readonly parseRows?: boolean } = {}) => {
  const slot = new Map(plan.fresh.map((u, i) => [u, i] as const))
  const compactSlot = new Map(plan.fresh.map((u, i) => [generatedPlatformCustomerId(u), i] as const))
  const statements = new Map<string, Database.Statement>()
  const inserted = new Set<number>()
  let walFd: number | undefined
  const steps = plan.calls.map((c) => {
    if (c.kind === "fsync")
      return () => {
        walFd ??= openSync(walFile, "r+")
        fsyncSync(walFd)
      }
    if (c.kind === "exec") {
      const sql = compileString(c.sql, slot, compactSlot)
      return (ids: ReadonlyArray<string>) => void db.exec(sql(ids, new Map()) as string)
    }
    const key = `${c.pluck ? "p" : "r"}${c.sql}`
    let st = statements.get(key)
    if (st === undefined) statements.set(key, (st = c.pluck ? db.prepare(c.sql).pluck() : db.prepare(c.sql)))
    const args: Array<Arg> = c.args.map((a) => {
      if (typeof a === "string") return compileString(a, slot, compactSlot)
      if (typeof a === "number" && inserted.has(a)) return (_ids, rowids) => rowids.get(a) ?? a
      return () => a
    })
    if (c.insertedRowid !== undefined) inserted.add(c.insertedRowid)
    const method = c.kind
    const captured = c.insertedRowid
    const s = st
    return (ids: ReadonlyArray<string>, rowids: Map<number, number>) => {
      const values = args.map((a) => a(ids, rowids))
      if (method === "iterate") for (const _ of s.iterate(...values));
      else {
        const r = (s[method] as (...v: Array<unknown>) => any)(...values)
        if (captured !== undefined) rowids.set(captured, Number(r.lastInsertRowid))
        else if (options.parseRows === true && r !== undefined) for (const row of Array.isArray(r) ? r : [r]) if (typeof row?.data === "string") JSON.parse(row.data)
      }
    }
  })
  /**
   * A new operation's fresh uuids and rowid map; its steps run in one or several ranges. The
   * uuids are of the kind the engine makes (time-ordered, DECISIONS #487), so the replay's keys
   * land where Tessera's do in the B-trees.
   */
  const begin = () => ({ ids: plan.fresh.map(() => timeOrderedUuid()), rowids: new Map<number, number>() })
  type Context = ReturnType<typeof begin>
  const runRange = (c: Context, from = 0, to = steps.length) => {
    for (let i = from; i < to; i++) steps[i]!(c.ids, c.rowids)
  }
  return {
    begin,
    runRange,
    run: () => runRange(begin()),
    /** This operation's value of a uuid the logged one made. */
    freshOf: (c: Context, loggedUuid: string) => c.ids[slot.get(loggedUuid)!]!,
    close: () => walFd !== undefined && closeSync(walFd)
  }
}
