// The raw-SQLite baselines replay what the SQLite store really runs: its database handle is
// wrapped once with a logger, one operation runs through the engine, and the statements it ran
// (SQL, method, arguments, in order) are replayed on a raw better-sqlite3 connection. So the
// baseline follows whatever the store does at merge time (statements, transactions, pragmas).
import fs from "node:fs"
import { syncBuiltinESMExports } from "node:module"
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

const METHODS = new Set(["run", "get", "all", "iterate"])

/**
 * A proxy of `db` whose prepared statements and `exec` record every call while `recording` is
 * on. Give the proxy to `makeSqliteStore`; its statements are prepared through it.
 */
export const statementLogger = (db: Database.Database) => {
  const state = { recording: false, calls: [] as Array<LoggedCall> }
  const wrapStatement = (st: Database.Statement) => {
    let plucked = false
    const proxy: Database.Statement = new Proxy(st, {
      get(target, p) {
        if (p === "pluck")
          return (on = true) => {
            target.pluck(on)
            plucked = on
            return proxy
          }
        const v = Reflect.get(target, p, target)
        if (typeof p === "string" && METHODS.has(p))
          return (...args: Array<unknown>) => {
            const r = (v as (...a: Array<unknown>) => any).apply(target, args)
            if (state.recording) {
              const inserted = p === "run" && /^\s*INSERT/i.test(target.source) && r.changes > 0 ? Number(r.lastInsertRowid) : undefined
              state.calls.push({ kind: p as LoggedCall["kind"], sql: target.source, args: [...args], pluck: plucked, ...(inserted === undefined ? {} : { insertedRowid: inserted }) })
            }
            return r
          }
        return typeof v === "function" ? v.bind(target) : v
      }
    })
    return proxy
  }
  const proxy = new Proxy(db, {
    get(target, p) {
      if (p === "prepare") return (sql: string) => wrapStatement(target.prepare(sql))
      if (p === "exec")
        return (sql: string) => {
          if (state.recording) state.calls.push({ kind: "exec", sql, args: [], pluck: false })
          target.exec(sql)
          return proxy
        }
      const v = Reflect.get(target, p, target)
      return typeof v === "function" ? v.bind(target) : v
    }
  })
  return {
    db: proxy,
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
