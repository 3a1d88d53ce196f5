import { resolve } from "node:path"
import type Database from "better-sqlite3"
import { Effect, Layer, Option } from "effect"
import {
  type Collection,
  type Condition,
  indexKeys,
  type ListQuery,
  type Page,
  Store,
  StoreError,
  type StoreService,
  UniqueViolation
} from "@tessera/core"
import {
  type IndexReader,
  planList,
  type Positioned,
  rangeInOrder,
  serialisedTransaction,
  singleWrite,
  syncRead,
  WritePermit
} from "@tessera/core/store-kit"
import { openDatabase, type SqliteStoreOptions } from "./open-database.ts"
import { counted } from "./migrations/reindex.ts"
import { cacheKey, MAX_CACHED_JSON_CHARS, RecordCache } from "./record-cache.ts"
import { GroupCommit, walFileSync, type WalSync } from "./group-commit.ts"

interface RecordRow {
  readonly seq: number
  readonly data: string
}

/** Driver failures that are the database's state, not the program's: typed, and retryable when a lock is why. */
const RETRYABLE = /^SQLITE_(BUSY|LOCKED)/
const UNAVAILABLE = /^SQLITE_(IOERR|FULL|CANTOPEN|READONLY|CORRUPT|NOTADB|PROTOCOL)/

const storeErrorOf = (db: Database.Database, e: unknown): unknown => {
  const code = (e as { code?: unknown } | null)?.code
  if (typeof code === "string" && (RETRYABLE.test(code) || UNAVAILABLE.test(code)))
    return new StoreError({ message: `SQLite: ${code}`, retryable: RETRYABLE.test(code) })
  if (!db.open) return new StoreError({ message: "SQLite: the database is closed", retryable: false })
  return e
}

/**
 * The group commit a connection needs: a file in WAL mode with synchronous=NORMAL, whose commits
 * do not sync (FULL syncs each commit; OFF never syncs, not even at a checkpoint, so no log sync
 * could make it durable; an in-memory database has no disk).
 */
export const groupCommitOf = (db: Database.Database, walSync?: WalSync): GroupCommit | undefined => {
  if (db.memory || db.pragma("journal_mode", { simple: true }) !== "wal" || db.pragma("synchronous", { simple: true }) !== 1) return undefined
  return new GroupCommit(walSync ?? walFileSync(`${resolve(db.name)}-wal`))
}

export interface SqliteStoreTuning {
  /** The group commit to use (default: `groupCommitOf(db)`); tests hand one whose disk fails. */
  readonly groupCommit?: GroupCommit | undefined
}

/**
 * `Store` on better-sqlite3, called directly: its calls are synchronous, so an engine program
 * on this store stays synchronous end to end and the HTTP adapter can finish a read without
 * a promise hop (see README, "Why better-sqlite3 directly"); a write waits for its group's fsync.
 */
export const makeSqliteStore = (db: Database.Database, tuning: SqliteStoreTuning = { groupCommit: groupCommitOf(db) }): StoreService => {
  const group = tuning.groupCommit
  // Whether the open transaction wrote: one that only read has nothing to sync.
  let wrote = false
  const guard =
    <X>(f: () => X) =>
    (): X => {
      try {
        return f()
      } catch (e) {
        throw storeErrorOf(db, e)
      }
    }
  const q = {
    get: db.prepare<[string, string, string], RecordRow>("SELECT seq, data FROM records WHERE collection = ? AND scope = ? AND id = ?"),
    insert: db.prepare("INSERT INTO records (collection, scope, id, data) VALUES (?, ?, ?, ?)"),
    update: db.prepare("UPDATE records SET data = ? WHERE seq = ?"),
    remove: db.prepare("DELETE FROM records WHERE seq = ?"),
    indexDelete: db.prepare("DELETE FROM record_index WHERE collection = ? AND scope = ? AND name = ? AND key = ? AND seq = ?"),
    holder: db.prepare<[string, string, string, string, string], string>(
      "SELECT id FROM record_index WHERE collection = ? AND scope = ? AND name = ? AND key = ? AND id <> ? LIMIT 1"
    ).pluck(),
    countUp: db.prepare(
      `INSERT INTO record_counts (collection, scope, name, key, n) VALUES (?, ?, ?, ?, 1)
       ON CONFLICT (collection, scope, name, key) DO UPDATE SET n = n + 1`
    ),
    countDown: db.prepare("UPDATE record_counts SET n = n - 1 WHERE collection = ? AND scope = ? AND name = ? AND key = ?"),
    counter: db.prepare<[string, string, string, string], number>(
      "SELECT n FROM record_counts WHERE collection = ? AND scope = ? AND name = ? AND key = ?"
    ).pluck(),
    countKey: db.prepare<[string, string, string, string], number>(
      "SELECT count(*) FROM record_index WHERE collection = ? AND scope = ? AND name = ? AND key = ?"
    ).pluck(),
    // CROSS JOIN pins the join order: index entries first (already in seq order under one
    // key), then each record by its rowid.
    byKey: db.prepare<[string, string, string, string], RecordRow>(
      `SELECT r.seq, r.data FROM record_index i CROSS JOIN records r ON r.seq = i.seq
       WHERE i.collection = ? AND i.scope = ? AND i.name = ? AND i.key = ? ORDER BY i.seq`
    ),
    pageKey: db.prepare<[string, string, string, string, number, number], RecordRow>(
      `SELECT r.seq, r.data FROM record_index i CROSS JOIN records r ON r.seq = i.seq
       WHERE i.collection = ? AND i.scope = ? AND i.name = ? AND i.key = ? AND i.seq > ? ORDER BY i.seq LIMIT ?`
    ),
    pageAll: db.prepare<[string, string, number, number], RecordRow>(
      "SELECT seq, data FROM records WHERE collection = ? AND scope = ? AND seq > ? ORDER BY seq LIMIT ?"
    ),
    pageKeyDesc: db.prepare<[string, string, string, string, number, number], RecordRow>(
      `SELECT r.seq, r.data FROM record_index i CROSS JOIN records r ON r.seq = i.seq
       WHERE i.collection = ? AND i.scope = ? AND i.name = ? AND i.key = ? AND i.seq < ? ORDER BY i.seq DESC LIMIT ?`
    ),
    pageAllDesc: db.prepare<[string, string, number, number], RecordRow>(
      "SELECT seq, data FROM records WHERE collection = ? AND scope = ? AND seq < ? ORDER BY seq DESC LIMIT ?"
    ),
    clearIndex: db.prepare("DELETE FROM record_index WHERE collection = ? AND scope = ?"),
    clearCounts: db.prepare("DELETE FROM record_counts WHERE collection = ? AND scope = ?"),
    clear: db.prepare("DELETE FROM records WHERE collection = ? AND scope = ?")
  }
  // Multi-row inserts of index entries, by row count, prepared on first use.
  const indexAdds = new Map<number, Database.Statement>()
  const indexAdd = (n: number) => {
    let st = indexAdds.get(n)
    if (st === undefined) {
      st = db.prepare(`INSERT OR IGNORE INTO record_index (collection, scope, name, key, seq, id) VALUES ${Array(n).fill("(?, ?, ?, ?, ?, ?)").join(", ")}`)
      indexAdds.set(n, st)
    }
    return st
  }
  // Range statements by which bounds they have (at most 16), prepared on first use.
  const ranges = new Map<string, Database.Statement<Array<string>, RecordRow>>()
  const rangeStatement = (r: Record<string, string | undefined>) => {
    const ops = (["gt", "gte", "lt", "lte"] as const).filter((op) => r[op] !== undefined)
    const sig = ops.join(",")
    let st = ranges.get(sig)
    if (st === undefined) {
      const sql = { gt: ">", gte: ">=", lt: "<", lte: "<=" }
      st = db.prepare<Array<string>, RecordRow>(
        `SELECT r.seq, r.data FROM record_index i CROSS JOIN records r ON r.seq = i.seq
         WHERE i.collection = ? AND i.scope = ? AND i.name = ?${ops.map((op) => ` AND i.key ${sql[op]} ?`).join("")}`
      )
      ranges.set(sig, st)
    }
    return { st, args: ops.map((op) => r[op]!) }
  }

  const begin = db.prepare("BEGIN IMMEDIATE")
  const commit = db.prepare("COMMIT")
  const rollback = db.prepare("ROLLBACK")
  const tx = serialisedTransaction(new WritePermit(), {
    begin: guard(() => {
      group?.checkWritable()
      wrote = false
      begin.run()
    }),
    commit: guard(() => void commit.run()),
    rollback: guard(() => {
      if (db.inTransaction) rollback.run()
    }),
    ...(group === undefined ? {} : { committed: () => (wrote ? group.commit() : undefined) })
  })
  const cache = new RecordCache(db)
  const write = singleWrite(tx)
  const parse = <A>(r: RecordRow): Positioned<A> => ({ seq: r.seq, value: JSON.parse(r.data) as A })

  // Index rows change only where the keys do: an update that keeps its keys writes no index
  // page, and nothing needs an index by record id (each page written is a WAL frame to sync).
  const keysOf = <A>(c: Collection<A>, value: A | undefined): Map<string, readonly [string, string]> => {
    const out = new Map<string, readonly [string, string]>()
    if (value !== undefined)
      for (const name of Object.keys(c.indexes)) for (const k of indexKeys(c, name, value)) out.set(`${name}\u0000${k}`, [name, k])
    return out
  }
  const writeIndexes = <A>(c: Collection<A>, scope: string, id: string, seq: number, before: A | undefined, after: A | undefined) => {
    const old = keysOf(c, before)
    const next = keysOf(c, after)
    for (const [k, [name, key]] of old)
      if (!next.has(k)) {
        q.indexDelete.run(c.name, scope, name, key, seq)
        if (counted(c as Collection<unknown>, name)) q.countDown.run(c.name, scope, name, key)
      }
    // New entries go in one multi-row statement: a created record has up to a dozen, and each
    // statement run costs more than its row.
    const rows: Array<string | number> = []
    for (const [k, [name, key]] of next)
      if (!old.has(k)) {
        rows.push(c.name, scope, name, key, seq, id)
        if (counted(c as Collection<unknown>, name)) q.countUp.run(c.name, scope, name, key)
      }
    if (rows.length > 0) indexAdd(rows.length / 6).run(...rows)
  }
  const checkUnique = <A>(c: Collection<A>, scope: string, id: string, value: A) => {
    for (const name in c.indexes) {
      if (c.indexes[name]!.kind !== "unique") continue
      for (const key of indexKeys(c, name, value)) {
        const holder = q.holder.get(c.name, scope, name, key, id)
        if (holder !== undefined) throw new UniqueViolation({ collection: c.name, index: name, key, existingId: holder })
      }
    }
  }

  const reader = <A>(c: Collection<A>, scope: string): IndexReader<A> => ({
    count: (index, key) =>
      index === undefined
        ? (q.counter.get(c.name, scope, "", "") ?? 0)
        : counted(c as Collection<unknown>, index)
          ? (q.counter.get(c.name, scope, index, key!) ?? 0)
          : (q.countKey.get(c.name, scope, index, key!) ?? 0),
    pageAt: (index, key, afterSeq, n, descending) => {
      if (!descending)
        return (index === undefined ? q.pageAll.all(c.name, scope, afterSeq, n) : q.pageKey.all(c.name, scope, index, key!, afterSeq, n)).map(parse<A>)
      // SQLite binds no Infinity: "before the newest" is before any seq there can be.
      const before = Math.min(afterSeq, Number.MAX_SAFE_INTEGER)
      return (index === undefined ? q.pageAllDesc.all(c.name, scope, before, n) : q.pageKeyDesc.all(c.name, scope, index, key!, before, n)).map(parse<A>)
    },
    scanKey: (index, key) => q.byKey.all(c.name, scope, index, key).map(parse<A>),
    scanRange: (index, range: Condition) => {
      const { st, args } = rangeStatement(range as Record<string, string | undefined>)
      return st.all(c.name, scope, index, ...args).map(parse<A>)
    }
  })

  return {
    get: <A>(c: Collection<A>, scope: string, id: string) =>
      syncRead(
        guard(() => {
          const key = cacheKey(c.name, scope, id)
          const hit = cache.get(key)
          if (hit !== undefined) return Option.some(hit as A)
          const row = q.get.get(c.name, scope, id)
          if (row === undefined) return Option.none<A>()
          const value = JSON.parse(row.data) as A
          if (row.data.length <= MAX_CACHED_JSON_CHARS) cache.set(key, value)
          return Option.some(value)
        })
      ),
    put: (c, scope, value) =>
      write<void, StoreError | UniqueViolation>(
        guard(() => {
          const id = c.idOf(value)
          checkUnique(c, scope, id, value)
          wrote = true
          cache.forget(cacheKey(c.name, scope, id))
          const prev = q.get.get(c.name, scope, id)
          if (prev === undefined) {
            const seq = Number(q.insert.run(c.name, scope, id, JSON.stringify(value)).lastInsertRowid)
            q.countUp.run(c.name, scope, "", "")
            writeIndexes(c, scope, id, seq, undefined, value)
          } else {
            q.update.run(JSON.stringify(value), prev.seq)
            writeIndexes(c, scope, id, prev.seq, JSON.parse(prev.data), value)
          }
        })
      ) as never,
    remove: (c, scope, id) =>
      write(
        guard(() => {
          cache.forget(cacheKey(c.name, scope, id))
          const prev = q.get.get(c.name, scope, id)
          if (prev === undefined) return false
          wrote = true
          writeIndexes(c, scope, id, prev.seq, JSON.parse(prev.data), undefined)
          q.countDown.run(c.name, scope, "", "")
          return q.remove.run(prev.seq).changes > 0
        })
      ),
    findBy: <A>(c: Collection<A>, scope: string, index: string, value: string) =>
      syncRead(guard(() => q.byKey.all(c.name, scope, index, value).map((r) => JSON.parse(r.data) as A))),
    list: <A>(c: Collection<A>, scope: string, query: ListQuery) => syncRead(guard((): Page<A> => planList(c, reader(c, scope), query))),
    due: <A>(c: Collection<A>, scope: string, index: string, upTo: string, limit: number) =>
      syncRead(
        guard(() =>
          rangeInOrder(reader(c, scope).scanRange(index, { index, lte: upTo }))
            .slice(0, limit)
            .map((r) => r.value)
        )
      ),
    clear: (c, scope) =>
      write(
        guard(() => {
          // Every cached record of the scope goes; dropping the whole cache is simpler and rare.
          cache.clear()
          wrote = true
          q.clearIndex.run(c.name, scope)
          q.clearCounts.run(c.name, scope)
          return q.clear.run(c.name, scope).changes
        })
      ),
    transaction: tx
  }
}

export { migrate, openDatabase, type SqliteStoreOptions } from "./open-database.ts"

export const SqliteStore = {
  /** `Store` on a SQLite file, opened for the layer's lifetime and closed with it. */
  layer: (options: SqliteStoreOptions): Layer.Layer<Store> => {
    return Layer.scoped(
      Store,
      Effect.acquireRelease(
        Effect.sync(() => {
          const db = openDatabase(options)
          return { db, groupCommit: groupCommitOf(db) }
        }),
        ({ db, groupCommit }) =>
          Effect.sync(() => {
            db.close()
            groupCommit?.close()
          })
      ).pipe(Effect.map(({ db, groupCommit }) => makeSqliteStore(db, { groupCommit })))
    )
  }
}
