// The raw-SQLite baselines replay what the SQLite store really runs: better-sqlite3's methods
// are wrapped with a logger, one operation runs through the engine, and the statements it ran
// (SQL, method, arguments, in order) are replayed on a raw better-sqlite3 connection. So the
// baseline follows whatever the store does at merge time (statements, transactions, pragmas).
import fs from "node:fs"
import { syncBuiltinESMExports } from "node:module"
import BetterSqlite3 from "better-sqlite3"
import type Database from "better-sqlite3"

export interface LoggedCall {
  /** A statement method, `exec` (SQL text), or `fsync` (a sync the store asked node:fs for). */
  readonly kind: "run" | "get" | "all" | "iterate" | "exec" | "fsync"
  readonly sql: string
  readonly args: ReadonlyArray<unknown>
  readonly pluck: boolean
  /** The rowid an INSERT that changed a row made (later statements may name it). */
  readonly insertedRowid?: number
}

const METHODS = ["run", "get", "all", "iterate"] as const

/**
 * Records every statement run and `exec` on the connection(s) to `filename`, while `record` runs,
 * by wrapping better-sqlite3's Statement and Database methods for as long as this is installed
 * (`uninstall` puts them back). The store is built as it always is (`SqliteStore.layer`), so the
 * log is whatever the store's code does, however it is arranged. Install it before the store
 * opens its file.
 */
export const logStatements = (filename: string) => {
  const probe = new BetterSqlite3(":memory:")
  const S = Object.getPrototypeOf(probe.prepare("SELECT 1")) as Record<string, (...a: Array<unknown>) => any>
  probe.close()
  const D = BetterSqlite3.prototype as unknown as Record<string, (...a: Array<unknown>) => any>
  const saved: Record<string, (...a: Array<unknown>) => any> = { ...Object.fromEntries(METHODS.map((m) => [m, S[m]!])), pluck: S["pluck"]!, exec: D["exec"]! }
  const state = { recording: false, calls: [] as Array<LoggedCall>, db: undefined as Database.Database | undefined }
  const plucked = new WeakMap<object, boolean>()
  const ours = (db: Database.Database) => {
    if (db.name !== filename) return false
    state.db ??= db
    return true
  }
  for (const m of METHODS)
    S[m] = function (this: Database.Statement, ...args: Array<unknown>) {
      const r = saved[m]!.apply(this, args)
      if (ours(this.database) && state.recording) {
        const inserted = m === "run" && /^\s*INSERT/i.test(this.source) && r.changes > 0 ? Number(r.lastInsertRowid) : undefined
        state.calls.push({ kind: m, sql: this.source, args: [...args], pluck: plucked.get(this) ?? false, ...(inserted === undefined ? {} : { insertedRowid: inserted }) })
      }
      return r
    }
  S["pluck"] = function (this: object, on = true) {
    plucked.set(this, on as boolean)
    return saved["pluck"]!.call(this, on)
  }
  D["exec"] = function (this: Database.Database, sql: unknown) {
    if (ours(this) && state.recording) state.calls.push({ kind: "exec", sql: String(sql), args: [], pluck: false })
    return saved["exec"]!.call(this, sql)
  }
  return {
    /** The store's own connection (known once it ran a statement). */
    connection: (): Database.Database => {
      if (state.db === undefined) throw new Error(`no connection to ${filename} has run a statement`)
      return state.db
    },
    /** The calls recorded so far in the current recording. */
    peek: (): ReadonlyArray<LoggedCall> => state.calls,
    /** Runs `f` with recording on; the calls it made, in order (fsyncs through node:fs included). */
    record: async (f: () => Promise<unknown> | unknown): Promise<Array<LoggedCall>> => {
      state.calls = []
      state.recording = true
      const restore = watchFsyncs(() => state.recording && state.calls.push({ kind: "fsync", sql: "", args: [], pluck: false }))
      try {
        await f()
      } finally {
        state.recording = false
        restore()
      }
      return state.calls
    },
    uninstall: () => {
      for (const m of METHODS) S[m] = saved[m]!
      S["pluck"] = saved["pluck"]!
      D["exec"] = saved["exec"]!
    }
  }
}

/** Counts node:fs syncs while installed (a store may sync the WAL itself, e.g. for group commit). */
const watchFsyncs = (seen: () => unknown) => {
  const names = ["fsyncSync", "fdatasyncSync", "fsync", "fdatasync"] as const
  const saved = names.map((n) => fs[n])
  const m = fs as unknown as Record<string, (...a: Array<unknown>) => unknown>
  for (const n of names) {
    const original = m[n]!
    m[n] = (...a: Array<unknown>) => {
      seen()
      return original(...a)
    }
  }
  syncBuiltinESMExports()
  return () => {
    names.forEach((n, i) => (m[n] = saved[i] as never))
    syncBuiltinESMExports()
  }
}

/** The pragmas a connection was opened with, read back (so a baseline opens its own the same way). */
export const connectionPragmas = (db: Database.Database): Record<string, unknown> => {
  const out: Record<string, unknown> = {}
  for (const name of ["journal_mode", "synchronous", "busy_timeout", "foreign_keys", "cache_size", "mmap_size", "temp_store", "wal_autocheckpoint", "locking_mode", "page_size"])
    out[name] = db.pragma(name, { simple: true })
  return out
}

/** Applies pragmas read by `connectionPragmas` (page_size and journal_mode are the file's, kept by the copy). */
export const applyPragmas = (db: Database.Database, pragmas: Record<string, unknown>) => {
  for (const [name, value] of Object.entries(pragmas)) if (name !== "page_size") db.pragma(`${name} = ${String(value)}`)
}
