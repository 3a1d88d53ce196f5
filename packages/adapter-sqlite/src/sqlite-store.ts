import Database from "better-sqlite3"
import { Effect, Layer, Option } from "effect"
import {
  type Collection,
  indexKeys,
  type ListQuery,
  type Page,
  pageOf,
  serialisedTransaction,
  singleWrite,
  Store,
  type StoreService,
  WritePermit
} from "@tessera/core"
import { migrations } from "./migrations/index.ts"
import { cacheKey, RecordCache } from "./record-cache.ts"

export interface SqliteStoreOptions {
  readonly filename: string
  /** How long a writer waits for another process's write lock before failing (ms). */
  readonly busyTimeoutMs?: number
}

const migrate = (db: Database.Database): void => {
  db.exec("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)")
  // BEGIN IMMEDIATE so two processes opening a new file at once cannot both apply version 1.
  db.exec("BEGIN IMMEDIATE")
  try {
    const applied = new Set(
      (db.prepare("SELECT version FROM schema_migrations").all() as Array<{ version: number }>).map((r) => r.version)
    )
    const record = db.prepare("INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)")
    for (const m of migrations) {
      if (applied.has(m.version)) continue
      db.exec(m.sql)
      record.run(m.version, new Date().toISOString())
    }
    db.exec("COMMIT")
  } catch (e) {
    db.exec("ROLLBACK")
    throw e
  }
}

/**
 * Opens (or creates) the database file: WAL so readers never block the writer, synchronous=FULL
 * so a commit is on disk when it returns, a busy timeout so a second process waits its turn.
 */
export const openDatabase = (options: SqliteStoreOptions): Database.Database => {
  const db = new Database(options.filename)
  db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`)
  db.pragma("journal_mode = WAL")
  db.pragma("synchronous = FULL")
  db.pragma("foreign_keys = ON")
  migrate(db)
  return db
}

interface RecordRow {
  readonly seq: number
  readonly data: string
}

/**
 * `Store` on better-sqlite3, called directly: its calls are synchronous, so an engine program
 * on this store stays synchronous end to end and the HTTP adapter can finish a request without
 * a promise hop (see README, "Why better-sqlite3 directly").
 */
const splitKey = (k: string): [string, string] => {
  const at = k.indexOf("\u0000")
  return [k.slice(0, at), k.slice(at + 1)]
}

export const makeSqliteStore = (db: Database.Database): StoreService => {
  const q = {
    get: db.prepare<[string, string, string], RecordRow>(
      "SELECT seq, data FROM records WHERE collection = ? AND scope = ? AND id = ?"
    ),
    upsert: db.prepare(
      `INSERT INTO records (collection, scope, id, data) VALUES (?, ?, ?, ?)
       ON CONFLICT (collection, scope, id) DO UPDATE SET data = excluded.data`
    ),
    remove: db.prepare("DELETE FROM records WHERE collection = ? AND scope = ? AND id = ?"),
    indexDelete: db.prepare("DELETE FROM record_index WHERE collection = ? AND scope = ? AND name = ? AND key = ? AND id = ?"),
    indexAdd: db.prepare(
      "INSERT OR IGNORE INTO record_index (collection, scope, name, key, id) VALUES (?, ?, ?, ?, ?)"
    ),
    findBy: db.prepare<[string, string, string, string], RecordRow>(
      // CROSS JOIN pins the join order: index entries first, then records by key. Left to
      // itself the planner may walk records in seq order to satisfy ORDER BY, which is O(n).
      `SELECT r.seq, r.data FROM record_index i
       CROSS JOIN records r ON r.collection = i.collection AND r.scope = i.scope AND r.id = i.id
       WHERE i.collection = ? AND i.scope = ? AND i.name = ? AND i.key = ? ORDER BY r.seq`
    ),
    clearIndex: db.prepare("DELETE FROM record_index WHERE collection = ? AND scope = ?"),
    clear: db.prepare("DELETE FROM records WHERE collection = ? AND scope = ?"),
    scan: db.prepare<[string, string], RecordRow>(
      "SELECT seq, data FROM records WHERE collection = ? AND scope = ? ORDER BY seq"
    )
  }

  const begin = db.prepare("BEGIN IMMEDIATE")
  const commit = db.prepare("COMMIT")
  const rollback = db.prepare("ROLLBACK")
  const tx = serialisedTransaction(new WritePermit(), {
    begin: () => void begin.run(),
    commit: () => void commit.run(),
    rollback: () => {
      if (db.inTransaction) rollback.run()
    }
  })
  const cache = new RecordCache(db)
  const write = singleWrite(tx)

  // Index rows change only where the keys do: an update that keeps its keys writes no index
  // page, and nothing needs an index by record id (each page written is a WAL frame to sync).
  const keysOf = <A>(c: Collection<A>, value: A | undefined): Set<string> => {
    const out = new Set<string>()
    if (value !== undefined) for (const name of Object.keys(c.indexes)) for (const k of indexKeys(c, name, value)) out.add(`${name}\u0000${k}`)
    return out
  }
  const writeIndexes = <A>(c: Collection<A>, scope: string, id: string, before: A | undefined, after: A | undefined) => {
    const old = keysOf(c, before)
    const next = keysOf(c, after)
    for (const k of old) if (!next.has(k)) q.indexDelete.run(c.name, scope, ...splitKey(k), id)
    for (const k of next) if (!old.has(k)) q.indexAdd.run(c.name, scope, ...splitKey(k), id)
  }
  const previous = <A>(c: Collection<A>, scope: string, id: string): A | undefined => {
    const row = q.get.get(c.name, scope, id)
    return row === undefined ? undefined : (JSON.parse(row.data) as A)
  }

  const list = <A>(c: Collection<A>, scope: string, query: ListQuery<A>): Page<A> => {
    const rows =
      query.index === undefined
        ? q.scan.iterate(c.name, scope)
        : q.findBy.iterate(c.name, scope, query.index.name, query.index.value)
    return pageOf(
      (function* () {
        for (const r of rows) yield { seq: r.seq, value: JSON.parse(r.data) as A }
      })(),
      query
    )
  }

  return {
    get: <A>(c: Collection<A>, scope: string, id: string) =>
      Effect.sync(() => {
        const key = cacheKey(c.name, scope, id)
        const hit = cache.get(key)
        if (hit !== undefined) return Option.some(hit as A)
        const row = q.get.get(c.name, scope, id)
        if (row === undefined) return Option.none<A>()
        const value = JSON.parse(row.data) as A
        cache.set(key, value)
        return Option.some(value)
      }),
    put: (c, scope, value) =>
      write(() => {
        const id = c.idOf(value)
        cache.forget(cacheKey(c.name, scope, id))
        const before = previous(c, scope, id)
        q.upsert.run(c.name, scope, id, JSON.stringify(value))
        writeIndexes(c, scope, id, before, value)
      }),
    remove: (c, scope, id) =>
      write(() => {
        cache.forget(cacheKey(c.name, scope, id))
        const before = previous(c, scope, id)
        if (before === undefined) return false
        writeIndexes(c, scope, id, before, undefined)
        return q.remove.run(c.name, scope, id).changes > 0
      }),
    findBy: <A>(c: Collection<A>, scope: string, index: string, value: string) =>
      Effect.sync(() => q.findBy.all(c.name, scope, index, value).map((r) => JSON.parse(r.data) as A)),
    list: (c, scope, query) => Effect.sync(() => list(c, scope, query)),
    clear: (c, scope) =>
      write(() => {
        // Every cached record of the scope goes; dropping the whole cache is simpler and rare.
        cache.clear()
        q.clearIndex.run(c.name, scope)
        return q.clear.run(c.name, scope).changes
      }),
    transaction: tx
  }
}

export const SqliteStore = {
  /** `Store` on a SQLite file, opened for the layer's lifetime and closed with it. */
  layer: (options: SqliteStoreOptions): Layer.Layer<Store> =>
    Layer.scoped(
      Store,
      Effect.acquireRelease(
        Effect.sync(() => openDatabase(options)),
        (db) => Effect.sync(() => db.close())
      ).pipe(Effect.map(makeSqliteStore))
    )
}
