import { Effect, Layer, Option } from "effect"
import pg from "pg"
import { type Collection, indexKeys, type ListQuery, Store, type StoreError, type StoreService, UniqueViolation } from "@tessera/core"
import { Connection, fromPromise } from "./connection.ts"
import { listPage, type Row } from "./list.ts"
import { migrate, SCHEMA_NAME } from "./migrate.ts"
import { postgresTransaction } from "./transaction.ts"

export interface PostgresStoreOptions {
  /** A connection string: `postgres://user:password@host:port/database` (or `?host=/socket/dir`). */
  readonly url: string
  /** The schema holding Tessera's tables (created at start); default `tessera`. */
  readonly schema?: string
  /** Connections in the pool (default 10): one serves the open transaction, the others reads. */
  readonly poolSize?: number
}

const counted = (c: Collection<unknown>, name: string): boolean => c.indexes[name]?.counted === true

/** A record's index entries by `name\0key`, so old and new can be compared by exact key. */
const keysOf = <A>(c: Collection<A>, value: A | undefined): Map<string, readonly [string, string]> => {
  const out = new Map<string, readonly [string, string]>()
  if (value !== undefined)
    for (const name of Object.keys(c.indexes)) for (const k of indexKeys(c, name, value)) out.set(`${name}\u0000${k}`, [name, k])
  return out
}

/** `Store` on PostgreSQL through `pg`: every call is a round trip, every write a SERIALIZABLE transaction. */
export const makePostgresStore = (pool: pg.Pool): StoreService => {
  const conn = new Connection(pool)
  const tx = postgresTransaction(conn)
  const q = <R extends pg.QueryResultRow>(text: string, values: ReadonlyArray<unknown>) => conn.query<R>(text, values)
  /** A write joins the fiber's transaction, or is a transaction of its own (`tx` tells which). */
  const write = <X, E>(self: Effect.Effect<X, E>): Effect.Effect<X, E | StoreError> => tx(self)

  const getRow = (c: Collection<unknown>, scope: string, id: string) =>
    Effect.map(q<Row>("SELECT seq, data FROM records WHERE collection = $1 AND scope = $2 AND id = $3", [c.name, scope, id]), (rows) => rows[0])

  /**
   * What a write changes besides the record: index rows only where the keys do (computed from
   * the previous value), and the counters with them. Each goes into one statement with the
   * record's own write (data-modifying WITH clauses), so a put costs one round trip after its
   * reads, whatever the number of keys.
   */
  const indexChanges = <A>(c: Collection<A>, before: A | undefined, after: A | undefined, total: -1 | 0 | 1) => {
    const old = keysOf(c, before)
    const next = keysOf(c, after)
    const gone: [Array<string>, Array<string>] = [[], []]
    const added: [Array<string>, Array<string>, Array<boolean>] = [[], [], []]
    const deltas: [Array<string>, Array<string>, Array<number>] = total === 0 ? [[], [], []] : [[""], [""], [total]]
    const delta = (name: string, key: string, d: number) => {
      deltas[0].push(name)
      deltas[1].push(key)
      deltas[2].push(d)
    }
    for (const [k, [name, key]] of old)
      if (!next.has(k)) {
        gone[0].push(name)
        gone[1].push(key)
        if (counted(c as Collection<unknown>, name)) delta(name, key, -1)
      }
    for (const [k, [name, key]] of next)
      if (!old.has(k)) {
        added[0].push(name)
        added[1].push(key)
        added[2].push(c.indexes[name]?.kind === "unique")
        if (counted(c as Collection<unknown>, name)) delta(name, key, 1)
      }
    return { gone, added, deltas }
  }

  // The counters' clause, shared by the three statements below ($1 collection, $2 scope).
  const COUNTS = (p: number) => `c AS (
      INSERT INTO record_counts (collection, scope, name, key, n)
      SELECT $1, $2, t.name, t.key, t.d FROM unnest($${p}::text[], $${p + 1}::text[], $${p + 2}::bigint[]) AS t(name, key, d)
      ON CONFLICT (collection, scope, name, key) DO UPDATE SET n = record_counts.n + EXCLUDED.n)`

  const insertRecord = <A>(c: Collection<A>, scope: string, id: string, value: A) => {
    const { added, deltas } = indexChanges(c, undefined, value, 1)
    return q(
      `WITH r AS (INSERT INTO records (collection, scope, id, data) VALUES ($1, $2, $3, $4) RETURNING seq),
       a AS (
         INSERT INTO record_index (collection, scope, name, key, seq, id, uniq)
         SELECT $1, $2, t.name, t.key, r.seq, $3, t.uniq FROM r, unnest($5::text[], $6::text[], $7::boolean[]) AS t(name, key, uniq)
         ON CONFLICT DO NOTHING),
       ${COUNTS(8)}
       SELECT seq FROM r`,
      [c.name, scope, id, JSON.stringify(value), ...added, ...deltas]
    )
  }

  const updateRecord = <A>(c: Collection<A>, scope: string, id: string, prev: Row, value: A) => {
    const { gone, added, deltas } = indexChanges(c, JSON.parse(prev.data) as A, value, 0)
    return q(
      `WITH u AS (UPDATE records SET data = $4 WHERE seq = $5),
       d AS (
         DELETE FROM record_index WHERE collection = $1 AND scope = $2 AND seq = $5
         AND (name, key) IN (SELECT * FROM unnest($6::text[], $7::text[]))),
       a AS (
         INSERT INTO record_index (collection, scope, name, key, seq, id, uniq)
         SELECT $1, $2, t.name, t.key, $5, $3, t.uniq FROM unnest($8::text[], $9::text[], $10::boolean[]) AS t(name, key, uniq)
         ON CONFLICT DO NOTHING),
       ${COUNTS(11)}
       SELECT 1`,
      [c.name, scope, id, JSON.stringify(value), prev.seq, ...gone, ...added, ...deltas]
    )
  }

  const removeRecord = <A>(c: Collection<A>, scope: string, prev: Row) => {
    const { deltas } = indexChanges(c, JSON.parse(prev.data) as A, undefined, -1)
    return q(
      `WITH r AS (DELETE FROM records WHERE seq = $3),
       d AS (DELETE FROM record_index WHERE collection = $1 AND scope = $2 AND seq = $3),
       ${COUNTS(4)}
       SELECT 1`,
      [c.name, scope, prev.seq, ...deltas]
    )
  }

  /** The first unique key (in declaration order) another record holds, as the port's error. */
  const checkUnique = <A>(c: Collection<A>, scope: string, id: string, value: A): Effect.Effect<void, StoreError | UniqueViolation> => {
    const wanted: Array<[string, string]> = []
    for (const name in c.indexes) if (c.indexes[name]!.kind === "unique") for (const key of indexKeys(c, name, value)) wanted.push([name, key])
    if (wanted.length === 0) return Effect.void
    return Effect.flatMap(
      q<{ name: string; key: string; id: string }>(
        `SELECT name, key, id FROM record_index WHERE collection = $1 AND scope = $2 AND id <> $3
         AND (name, key) IN (SELECT * FROM unnest($4::text[], $5::text[]))`,
        [c.name, scope, id, wanted.map((w) => w[0]), wanted.map((w) => w[1])]
      ),
      (rows) => {
        for (const [name, key] of wanted) {
          const holder = rows.find((r) => r.name === name && r.key === key)
          if (holder !== undefined) return Effect.fail(new UniqueViolation({ collection: c.name, index: name, key, existingId: holder.id }))
        }
        return Effect.void
      }
    )
  }

  return {
    get: <A>(c: Collection<A>, scope: string, id: string) =>
      Effect.map(getRow(c as Collection<unknown>, scope, id), (row) => (row === undefined ? Option.none<A>() : Option.some(JSON.parse(row.data) as A))),
    put: (c, scope, value) =>
      write(
        Effect.gen(function* () {
          const id = c.idOf(value)
          yield* checkUnique(c, scope, id, value)
          const prev = yield* getRow(c as Collection<unknown>, scope, id)
          yield* prev === undefined ? insertRecord(c, scope, id, value) : updateRecord(c, scope, id, prev, value)
        })
      ) as never,
    remove: (c, scope, id) =>
      write(
        Effect.gen(function* () {
          const prev = yield* getRow(c as Collection<unknown>, scope, id)
          if (prev === undefined) return false
          yield* removeRecord(c, scope, prev)
          return true
        })
      ),
    findBy: <A>(c: Collection<A>, scope: string, index: string, value: string) =>
      Effect.map(
        q<Row>(
          `SELECT r.seq, r.data FROM record_index i JOIN records r ON r.seq = i.seq
           WHERE i.collection = $1 AND i.scope = $2 AND i.name = $3 AND i.key = $4 ORDER BY i.seq`,
          [c.name, scope, index, value]
        ),
        (rows) => rows.map((r) => JSON.parse(r.data) as A)
      ),
    list: <A>(c: Collection<A>, scope: string, query: ListQuery) => listPage(q, c, scope, query),
    due: <A>(c: Collection<A>, scope: string, index: string, upTo: string, limit: number) =>
      Effect.map(
        q<Row>(
          `SELECT r.seq, r.data FROM records r WHERE r.seq IN (
             SELECT i.seq FROM record_index i WHERE i.collection = $1 AND i.scope = $2 AND i.name = $3 AND i.key <= $4)
           ORDER BY r.seq LIMIT $5`,
          [c.name, scope, index, upTo, limit]
        ),
        (rows) => rows.map((r) => JSON.parse(r.data) as A)
      ),
    clear: (c, scope) =>
      write(
        Effect.gen(function* () {
          yield* q("DELETE FROM record_index WHERE collection = $1 AND scope = $2", [c.name, scope])
          yield* q("DELETE FROM record_counts WHERE collection = $1 AND scope = $2", [c.name, scope])
          const rows = yield* q("DELETE FROM records WHERE collection = $1 AND scope = $2 RETURNING seq", [c.name, scope])
          return rows.length
        })
      ),
    transaction: tx
  }
}

/** A pool on `url` whose sessions work in `schema`. */
export const openPool = (options: PostgresStoreOptions): pg.Pool => {
  const schema = options.schema ?? "tessera"
  if (!SCHEMA_NAME.test(schema)) throw new Error(`invalid PostgreSQL schema name: ${schema}`)
  const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10, options: `-c search_path=${schema}` })
  // An idle connection the server closes is an event on the pool, not a crash of the process;
  // the next query opens a new one.
  pool.on("error", () => undefined)
  return pool
}

export const PostgresStore = {
  /**
   * `Store` on a PostgreSQL database: a pool opened for the layer's lifetime (migrations applied
   * first, safely when several instances start at once) and ended with it. A database that
   * cannot be reached or migrated at start is a defect of the layer carrying the `StoreError`
   * (the engine takes a store layer that cannot fail; the CLI turns it into one line).
   */
  layer: (options: PostgresStoreOptions): Layer.Layer<Store> =>
    Layer.orDie(
      Layer.scoped(
        Store,
        Effect.acquireRelease(
          Effect.flatMap(
            Effect.sync(() => openPool(options)),
            (pool) =>
              Effect.as(
                Effect.tapError(fromPromise(() => migrate(pool, options.schema ?? "tessera")), () => Effect.promise(() => pool.end())),
                pool
              )
          ),
          (pool) => Effect.promise(() => pool.end())
        ).pipe(Effect.map(makePostgresStore))
      )
    )
}
