import { Context, type Effect, type Fiber, type Option, Schema } from "effect"

/**
 * A store call that did not reach an answer: a lost connection, a lock held too long, a
 * serialization failure. `retryable` says whether running the same transaction again may
 * succeed; a transaction failing with a retryable error is retried by the store (bounded, see
 * `STORE_TRANSACTION_RETRIES`). Reaching HTTP it is a 503 SERVICE_UNAVAILABLE.
 */
export class StoreError extends Schema.TaggedError<StoreError>()("StoreError", {
  message: Schema.String,
  retryable: Schema.Boolean
}) {}

/**
 * A put that would give a unique index key a second record. `existingId` is the record that
 * holds the key, so an operation can answer today's 409 with the same details.
 */
export class UniqueViolation extends Schema.TaggedError<UniqueViolation>()("UniqueViolation", {
  collection: Schema.String,
  index: Schema.String,
  key: Schema.String,
  existingId: Schema.String
}) {}

/**
 * How an index answers. `plain`: equality, many records per key. `unique`: equality, at most
 * one record per key, enforced by the store. `ordered`: equality and ranges over keys compared
 * as strings (keys must sort as their values do: see `sortableInstant`).
 */
export type IndexKind = "plain" | "unique" | "ordered"

export interface IndexSpec<A> {
  readonly kind: IndexKind
  /** The record's keys in this index (none: the record is not in it). */
  readonly keys: (a: A) => string | ReadonlyArray<string> | undefined
  /**
   * Keep a count per key, written with the record in the same transaction, so a list on one
   * key answers `totalCount` with one read. For keys held by many records that lists page
   * through on their own (every active customer); other keys are counted when asked.
   */
  readonly counted?: boolean
  /**
   * Names a `plain` index of the same collection that gives every record at least the keys
   * this one gives it (this index is a filter of that one: "the active customers' keys").
   * A store may answer this index from that one's entries instead of keeping its own; the
   * memory and SQLite stores do (one large Map, or one index row, fewer per record). What an
   * index answers is unchanged. Adding or removing `within` on a collection with records changes
   * what a SQLite file holds: it needs a migration (rows of a new twin deleted, rows of a former
   * twin built with `reindex`); migration 4 names the twins it drops (DECISIONS #473).
   */
  readonly within?: string
}

/**
 * A typed collection: its name, how to read a record's id, and its declared indexes. `U` names
 * its unique indexes, so only a put into a collection that has some can fail with
 * `UniqueViolation`.
 */
export interface Collection<A, I extends string = string, U extends string = string> {
  readonly name: string
  readonly idOf: (a: A) => string
  readonly indexes: { readonly [K in I]: IndexSpec<A> }
  /** Phantom: the unique index names. */
  readonly _unique?: U
}

type UniqueOf<X> = { [K in keyof X]: X[K] extends "unique" ? K : never }[keyof X] & string

export const collection =
  <A>() =>
  <const X extends Record<string, IndexKind> = {}>(
    name: string,
    idOf: (a: A) => string,
    indexes: { readonly [K in keyof X]: { readonly kind: X[K]; readonly keys: IndexSpec<A>["keys"]; readonly counted?: boolean; readonly within?: keyof X & string } } = {} as never
  ): Collection<A, keyof X & string, UniqueOf<X>> => ({ name, idOf, indexes: indexes as never })

/** Keys an index produced for a record, normalised to an array. */
export const indexKeys = <A>(c: Collection<A>, index: string, a: A): ReadonlyArray<string> => {
  const spec = c.indexes[index]
  if (spec === undefined) return []
  const k = spec.keys(a)
  return k === undefined ? [] : typeof k === "string" ? [k] : k
}

/** An instant (ms since epoch) as an ordered-index key: ISO-8601 UTC sorts as time does. */
export const sortableInstant = (ms: number): string | undefined => {
  if (!Number.isFinite(ms)) return undefined
  const d = new Date(ms)
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString()
}

/** Already the key: what `rfc3339` writes (UTC, milliseconds), so the engine's own timestamps skip the parse. */
const CANONICAL = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/

/** A timestamp string (any offset) as an ordered-index key, or undefined when it is not one. */
export const sortableTimestamp = (t: string): string | undefined =>
  CANONICAL.test(t) ? t : sortableInstant(Date.parse(t))

/**
 * Every record lives in a scope: a platform's id, or `SERVER_SCOPE` for the engine's own records
 * (platforms, keys, settings). No operation of the port crosses scopes, which is what makes each
 * platform's data invisible to every other platform.
 */
export const SERVER_SCOPE = "_server"

/**
 * A condition on a declared index: equality (`eq`, any kind of index) or a range of keys
 * (`gt`/`gte`/`lt`/`lte`, ordered indexes). A record matches when one of its keys does.
 */
export type Condition =
  | { readonly index: string; readonly eq: string }
  | {
      readonly index: string
      readonly gt?: string
      readonly gte?: string
      readonly lt?: string
      readonly lte?: string
    }

export interface ListQuery {
  /** Every condition must hold (none: the whole collection). */
  readonly where?: ReadonlyArray<Condition>
  /**
   * Records strictly after this position (the `seq` of the last record of the previous page);
   * with `descending`, strictly before it.
   */
  readonly afterSeq?: number
  readonly limit: number
  /** Newest first: reverse listing order (the reference's `sortOrder=desc`). */
  readonly descending?: boolean
}

export interface Page<A> {
  readonly items: ReadonlyArray<A>
  readonly hasMore: boolean
  /** Position of the last item returned, to build the next cursor from. */
  readonly lastSeq: number | undefined
  readonly totalCount: number
}

export type PutError<U extends string> = StoreError | ([U] extends [never] ? never : UniqueViolation)

export interface StoreService {
  readonly get: <A>(c: Collection<A, string, string>, scope: string, id: string) => Effect.Effect<Option.Option<A>, StoreError>
  /**
   * Insert or replace by id; a replaced record keeps its position in listing order. Fails with
   * `UniqueViolation`, writing nothing, when another record holds one of its unique keys.
   */
  readonly put: <A, U extends string>(c: Collection<A, string, U>, scope: string, value: A) => Effect.Effect<void, PutError<U>>
  readonly remove: <A>(c: Collection<A, string, string>, scope: string, id: string) => Effect.Effect<boolean, StoreError>
  /** Records holding an index key, in listing order. */
  readonly findBy: <A>(
    c: Collection<A, string, string>,
    scope: string,
    index: string,
    value: string
  ) => Effect.Effect<ReadonlyArray<A>, StoreError>
  /**
   * Records matching every condition, in listing order, paged; `totalCount` counts every match.
   * Without conditions or with one equality the count is the store's counter, so a page costs
   * what the page costs whatever the collection's size.
   */
  readonly list: <A>(c: Collection<A, string, string>, scope: string, query: ListQuery) => Effect.Effect<Page<A>, StoreError>
  /**
   * Records whose key in the ordered `index` is at most `upTo` ("due by then"), in listing
   * order, at most `limit` of them. Reads the index range, never the collection.
   */
  readonly due: <A>(
    c: Collection<A, string, string>,
    scope: string,
    index: string,
    upTo: string,
    limit: number
  ) => Effect.Effect<ReadonlyArray<A>, StoreError>
  /**
   * Removes every record of the collection in this scope, index entries included, and answers
   * how many there were (a sandbox reset or import replaces a platform's data in one go).
   */
  readonly clear: <A>(c: Collection<A, string, string>, scope: string) => Effect.Effect<number, StoreError>
  /**
   * Runs `self` as one atomic unit: every write inside commits together, or none does when it
   * fails, dies or is interrupted. Write transactions are serialised; a transaction nested in
   * another joins it. The outermost one is run again when it fails with a retryable
   * `StoreError`, up to `STORE_TRANSACTION_RETRIES` times.
   */
  readonly transaction: <X, E, R>(self: Effect.Effect<X, E, R>) => Effect.Effect<X, E | StoreError, R>
  /** Optional: a synchronous store's writes as plain calls (read it through `directWrites`). */
  readonly direct?: DirectWrites
}

/** Answered by `DirectWrites.transaction` when it cannot run now. */
export const directBusy: unique symbol = Symbol.for("@tessera/Store/directBusy")

/** A put inside a direct transaction: throws the `UniqueViolation` or `StoreError` the Effect would fail with. */
export type DirectPut = <A>(c: Collection<A, string, string>, scope: string, value: A) => void

/**
 * A synchronous store's write transactions as plain calls, for the engine's most frequent writes
 * (DECISIONS #535): through Effects, a customer creation on the memory store spent about a third
 * of its time in the run loop, ~20 steps of transaction and puts, each an allocation and a trip
 * through the fiber. An operation that uses it keeps its Effect path for every other store and
 * for when this one answers `directBusy`; both paths build the same records in the same order.
 * Only a store whose commits are durable when they return may offer it: a direct transaction has
 * no way to hand the caller a commit to wait for (`PendingCommit`), as a group-committing store's
 * Effect transactions do.
 */
export interface DirectWrites {
  /**
   * The service this belongs to. A copy of it that wraps some of its calls (`{ ...store, put }`,
   * a test's failing store, a user's decorator) inherits this field but must not be bypassed:
   * `directWrites` answers only for the service itself.
   */
  readonly service: StoreService
  /**
   * Runs `f` as one transaction now, on the caller's stack: joined to the open transaction when
   * `fiber` is inside it, else under the write permit. Whatever `f` throws is rethrown, after
   * rolling back its writes when it ran on its own (joined, the open transaction ends as it does
   * on the failure the caller makes of it). Not retried: a store whose direct writes can fail
   * retryably retries them itself. Answers `directBusy`, running nothing, when another fiber
   * holds the write permit. `fiber` is the calling fiber (the one whose step runs this); `put` is
   * valid only while `f` runs, and inside `f` another direct transaction joins this one.
   */
  readonly transaction: <X>(fiber: Fiber.RuntimeFiber<unknown, unknown>, f: (put: DirectPut) => X) => X | typeof directBusy
}

/** The store's direct writes, when it has them and is not a copy made to wrap it. */
export const directWrites = (store: StoreService): DirectWrites | undefined =>
  store.direct !== undefined && store.direct.service === store ? store.direct : undefined

export class Store extends Context.Tag("@tessera/Store")<Store, StoreService>() {}
