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
  dependOn,
  failOrDie,
  type IndexReader,
  planList,
  type Positioned,
  rangeInOrder,
  serialisedTransaction,
  singleWrite,
  twinsOf,
  withTwins,
  WritePermit
} from "@tessera/core/store-kit"
import { openDatabase, type SqliteStoreOptions } from "./open-database.ts"
import { counted } from "./migrations/reindex.ts"
import { cacheKey, MAX_CACHED_JSON_CHARS, RecordCache } from "./record-cache.ts"
import { BatchedTransactions } from "./batched-transactions.ts"
import { GroupCommit, walFileSync, type WalSync } from "./group-commit.ts"
import { Spaces } from "./spaces.ts"
import { bookkept, plainHooks } from "./transaction-hooks.ts"
import { prepareStatements, type RecordRow } from "./statements.ts"

/** A collection's indexes that have rows of their own (a twin has none, #473), once per definition. */
const rowIndexes = new WeakMap<object, ReadonlyArray<string>>()
const rowIndexesOf = (c: Collection<any>): ReadonlyArray<string> => {
  let names = rowIndexes.get(c)
  if (names === undefined) {
    const twins = twinsOf(c)
    names = Object.keys(c.indexes).filter((name) => !twins.has(name))
    rowIndexes.set(c, names)
  }
  return names
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
  // With group commit, write transactions are savepoints of one outer transaction per group (#480).
  const batch = group === undefined ? undefined : new BatchedTransactions(db, group)
  // Whether the open transaction wrote: one that only read has nothing to sync.
  let wrote = false
  const guard =
    <X>(f: () => X) =>
    (): X => {
      try {
        return f()
      } catch (e) {
        batch?.checkLost(e)
        throw storeErrorOf(db, e)
      }
    }
  /**
   * A write transaction that runs while the open group holds other requests' writes may have seen
   * them (a unique check): its answer, even a refusal, waits for their sync too (#481). Nothing is
   * added when no group is open.
   */
  const grouped = <X, E>(effect: Effect.Effect<X, E>): Effect.Effect<X, E> =>
    batch === undefined
      ? effect
      : Effect.suspend(() => {
          const p = batch.pending()
          return p === undefined ? effect : Effect.zipRight(dependOn(p), effect)
        })
  const syncRead = <X>(f: () => X): Effect.Effect<X, StoreError> =>
    Effect.withFiberRuntime((fiber) => {
      try {
        const x = f()
        // Only inside a write transaction (whose answer waits for a sync anyway): a plain read stays
        // synchronous and does not wait, as #311 decided for commits not yet synced (#481), also
        // while another program's write transaction is in progress (`busy` is the store's, not the fiber's).
        const p = batch !== undefined && tx.holds(fiber) ? batch.pending() : undefined
        return p === undefined ? Effect.succeed(x) : Effect.as(dependOn(p), x)
      } catch (e) {
        return failOrDie(e) as Effect.Effect<never, StoreError>
      }
    })
  // Rows name their collection, scope and index by number (`spaces`, migration 4, #470).
  const spaces = new Spaces(db)
  const { q, indexAdd, rangeStatement } = prepareStatements(db)
  const reset = () => void (wrote = false)
  const tx = serialisedTransaction(
    new WritePermit(),
    batch === undefined
      ? bookkept(plainHooks(db), guard, spaces, reset, () => spaces.committed())
      : bookkept(batch.hooks(() => wrote), guard, spaces, reset, () => spaces.releasedIntoGroup())
  )
  // With batching, the cache serves and keeps records while a group is open, but not inside a
  // write transaction (its savepoint may roll back); a lost group clears it (#485).
  const cache = new RecordCache(db, batch === undefined ? undefined : batch.busy)
  batch?.onCommitted(() => spaces.committed())
  batch?.onLost(() => {
    spaces.lost()
    cache.clear()
  })
  const single = singleWrite(tx)
  // Outside a transaction the write may queue for the permit while others join the open group:
  // what it depends on is read once it runs, inside its own transaction (#481).
  const write = <X, E extends StoreError | UniqueViolation = StoreError>(f: () => X): Effect.Effect<X, E> => {
    if (batch === undefined) return single<X, E>(f)
    // Joins the fiber's open transaction, or is one of its own (`tx` tells which).
    return tx(grouped(single<X, E>(f))) as Effect.Effect<X, E>
  }
  const parse = <A>(r: RecordRow): Positioned<A> => ({ seq: r.seq, value: JSON.parse(r.data) as A })

  // Index rows change only where the keys do: an update that keeps its keys writes no index
  // page, and nothing needs an index by record id (each page written is a WAL frame to sync).
  // A twin index (declared `within` a plain one) has no rows of its own: its keys are found
  // among its plain index's (#473).
  const keysOf = <A>(c: Collection<A>, value: A | undefined): Map<string, readonly [string, string]> => {
    const out = new Map<string, readonly [string, string]>()
    if (value === undefined) return out
    for (const name of rowIndexesOf(c)) for (const k of indexKeys(c, name, value)) out.set(`${name}\u0000${k}`, [name, k])
    return out
  }
  const writeIndexes = <A>(c: Collection<A>, scope: string, seq: number, before: A | undefined, after: A | undefined) => {
    if (before === undefined && after !== undefined) return writeNewIndexes(c, scope, seq, after)
    const old = keysOf(c, before)
    const next = keysOf(c, after)
    for (const [k, [name, key]] of old)
      if (!next.has(k)) {
        const ix = spaces.ensure(c.name, scope, name)
        q.indexDelete.run(ix, key, seq)
        if (counted(c as Collection<unknown>, name)) q.countDown.run(ix, key)
      }
    // New entries go in one multi-row statement: a created record has up to a dozen, and each
    // statement run costs more than its row.
    const rows: Array<string | number> = []
    for (const [k, [name, key]] of next)
      if (!old.has(k)) {
        const ix = spaces.ensure(c.name, scope, name)
        rows.push(ix, key, seq)
        if (counted(c as Collection<unknown>, name)) q.countUp.run(ix, key)
      }
    if (rows.length > 0) indexAdd(rows.length / 3).run(...rows)
  }
  /**
   * A new record's index rows: each of its keys is new, so no diff against the keys it had (the
   * common case of every creation, DECISIONS #528). A key an index gives twice counts once.
   */
  const writeNewIndexes = <A>(c: Collection<A>, scope: string, seq: number, value: A) => {
    const rows: Array<string | number> = []
    for (const name of rowIndexesOf(c)) {
      const keys = indexKeys(c, name, value)
      if (keys.length === 0) continue
      const ix = spaces.ensure(c.name, scope, name)
      const isCounted = counted(c as Collection<unknown>, name)
      for (const key of keys.length === 1 ? keys : new Set(keys)) {
        rows.push(ix, key, seq)
        if (isCounted) q.countUp.run(ix, key)
      }
    }
    if (rows.length > 0) indexAdd(rows.length / 3).run(...rows)
  }
  /** Fails when another record (any seq but `seq`) holds one of the value's unique keys. */
  const checkUnique = <A>(c: Collection<A>, scope: string, seq: number, value: A) => {
    const twins = twinsOf(c)
    for (const name in c.indexes) {
      if (c.indexes[name]!.kind !== "unique") continue
      const keys = indexKeys(c, name, value)
      if (twins.has(name)) {
        // A twin's holders are the records the reader finds under the key (a handful).
        const found = reader(c, scope)
        for (const key of keys)
          for (const r of found.scanKey(name, key))
            if (r.seq !== seq) throw new UniqueViolation({ collection: c.name, index: name, key, existingId: c.idOf(r.value) })
        continue
      }
      const ix = spaces.of(c.name, scope, name)
      if (ix === undefined) continue
      for (const key of keys) {
        const holder = q.holder.get(ix, key, seq)
        if (holder !== undefined) throw new UniqueViolation({ collection: c.name, index: name, key, existingId: q.idAt.get(holder)! })
      }
    }
  }

  // Reads of a space nothing was ever written to find nothing, without creating it.
  const reader = <A>(c: Collection<A>, scope: string): IndexReader<A> => withTwins(c, ownReader(c, scope))
  const ownReader = <A>(c: Collection<A>, scope: string): IndexReader<A> => {
    const ixOf = (index: string | undefined) => spaces.of(c.name, scope, index ?? "")
    return {
      count: (index, key) => {
        const ix = ixOf(index)
        if (ix === undefined) return 0
        return index === undefined
          ? (q.counter.get(ix, "") ?? 0)
          : counted(c as Collection<unknown>, index)
            ? (q.counter.get(ix, key!) ?? 0)
            : (q.countKey.get(ix, key!) ?? 0)
      },
      pageAt: (index, key, afterSeq, n, descending) => {
        const ix = ixOf(index)
        if (ix === undefined) return []
        if (!descending) return (index === undefined ? q.pageAll.all(ix, afterSeq, n) : q.pageKey.all(ix, key!, afterSeq, n)).map(parse<A>)
        // SQLite binds no Infinity: "before the newest" is before any seq there can be.
        const before = Math.min(afterSeq, Number.MAX_SAFE_INTEGER)
        return (index === undefined ? q.pageAllDesc.all(ix, before, n) : q.pageKeyDesc.all(ix, key!, before, n)).map(parse<A>)
      },
      scanKey: (index, key) => {
        const ix = ixOf(index)
        return ix === undefined ? [] : q.byKey.all(ix, key).map(parse<A>)
      },
      scanRange: (index, range: Condition) => {
        const ix = ixOf(index)
        if (ix === undefined) return []
        const { st, args } = rangeStatement(range as Record<string, string | undefined>)
        return st.all(ix, ...args).map(parse<A>)
      }
    }
  }

  return {
    get: <A>(c: Collection<A>, scope: string, id: string) =>
      syncRead(
        guard(() => {
          const key = cacheKey(c.name, scope, id)
          const hit = cache.get(key)
          if (hit !== undefined) return Option.some(hit as A)
          const space = spaces.of(c.name, scope, "")
          const row = space === undefined ? undefined : q.get.get(space, id)
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
          const known = spaces.of(c.name, scope, "")
          const prev = known === undefined ? undefined : q.get.get(known, id)
          checkUnique(c, scope, prev?.seq ?? 0, value)
          wrote = true
          cache.forget(cacheKey(c.name, scope, id))
          if (prev === undefined) {
            const space = known ?? spaces.ensure(c.name, scope, "")
            const seq = Number(q.insert.run(space, id, JSON.stringify(value)).lastInsertRowid)
            q.countUp.run(space, "")
            writeIndexes(c, scope, seq, undefined, value)
          } else {
            q.update.run(JSON.stringify(value), prev.seq)
            writeIndexes(c, scope, prev.seq, JSON.parse(prev.data), value)
          }
        })
      ) as never,
    remove: (c, scope, id) =>
      write(
        guard(() => {
          cache.forget(cacheKey(c.name, scope, id))
          const space = spaces.of(c.name, scope, "")
          const prev = space === undefined ? undefined : q.get.get(space, id)
          if (space === undefined || prev === undefined) return false
          wrote = true
          writeIndexes(c, scope, prev.seq, JSON.parse(prev.data), undefined)
          q.countDown.run(space, "")
          return q.remove.run(prev.seq).changes > 0
        })
      ),
    findBy: <A>(c: Collection<A>, scope: string, index: string, value: string) =>
      syncRead(guard(() => [...reader(c, scope).scanKey(index, value)].map((r) => r.value))),
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
          const space = spaces.of(c.name, scope, "")
          return space === undefined ? 0 : q.clear.run(space).changes
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
            // Commits and syncs an open group first, then lets the sync in flight end.
            groupCommit?.close()
            db.close()
          })
      ).pipe(Effect.map(({ db, groupCommit }) => makeSqliteStore(db, { groupCommit })))
    )
  }
}
