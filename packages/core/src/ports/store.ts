import { Context, type Effect, type Option } from "effect"

/**
 * A typed collection: its name, how to read a record's id, and its secondary indexes. An index
 * maps a record to zero, one or several string keys; `findBy` returns the records holding a key.
 */
export interface Collection<A, I extends string = string> {
  readonly name: string
  readonly idOf: (a: A) => string
  readonly indexes: { readonly [K in I]: (a: A) => string | ReadonlyArray<string> | undefined }
}

export const collection =
  <A>() =>
  <const I extends string = never>(
    name: string,
    idOf: (a: A) => string,
    indexes: { readonly [K in I]: (a: A) => string | ReadonlyArray<string> | undefined } = {} as never
  ): Collection<A, I> => ({ name, idOf, indexes })

/** Keys an index produced for a record, normalised to an array. */
export const indexKeys = <A>(c: Collection<A>, index: string, a: A): ReadonlyArray<string> => {
  const f = c.indexes[index]
  if (f === undefined) return []
  const k = f(a)
  return k === undefined ? [] : typeof k === "string" ? [k] : k
}

/**
 * Every record lives in a scope: a platform's id, or `SERVER_SCOPE` for the engine's own records
 * (platforms, keys, settings). No operation of the port crosses scopes, which is what makes each
 * platform's data invisible to every other platform.
 */
export const SERVER_SCOPE = "_server"

export interface ListQuery<A> {
  /** Restrict to records holding this index key. */
  readonly index?: { readonly name: string; readonly value: string }
  /** Further filter, applied before paging so `totalCount` counts matches. */
  readonly where?: (a: A) => boolean
  /** Records strictly after this position (the `seq` of the last record of the previous page). */
  readonly afterSeq?: number
  readonly limit: number
}

export interface Page<A> {
  readonly items: ReadonlyArray<A>
  readonly hasMore: boolean
  /** Position of the last item returned, to build the next cursor from. */
  readonly lastSeq: number | undefined
  readonly totalCount: number
}

export interface StoreService {
  readonly get: <A>(c: Collection<A>, scope: string, id: string) => Effect.Effect<Option.Option<A>>
  /** Insert or replace by id; a replaced record keeps its position in listing order. */
  readonly put: <A>(c: Collection<A>, scope: string, value: A) => Effect.Effect<void>
  readonly remove: <A>(c: Collection<A>, scope: string, id: string) => Effect.Effect<boolean>
  readonly findBy: <A>(
    c: Collection<A>,
    scope: string,
    index: string,
    value: string
  ) => Effect.Effect<ReadonlyArray<A>>
  /** Records in insertion order, paged. */
  readonly list: <A>(c: Collection<A>, scope: string, query: ListQuery<A>) => Effect.Effect<Page<A>>
  /**
   * Removes every record of the collection in this scope, index entries included, and answers
   * how many there were (a sandbox reset or import replaces a platform's data in one go).
   */
  readonly clear: <A>(c: Collection<A>, scope: string) => Effect.Effect<number>
  /**
   * Runs `self` as one atomic unit: every write inside commits together, or none does when it
   * fails, dies or is interrupted. Write transactions are serialised; a transaction nested in
   * another joins it.
   */
  readonly transaction: <X, E, R>(self: Effect.Effect<X, E, R>) => Effect.Effect<X, E, R>
}

export class Store extends Context.Tag("@tessera/Store")<Store, StoreService>() {}

/**
 * Pages records that arrive in listing (`seq`) order: applies `where`, counts every match for
 * `totalCount`, skips up to `afterSeq`, and takes `limit`. Adapters supply the rows; this is the
 * one definition of what a page is.
 */
export const pageOf = <A>(
  rows: Iterable<{ readonly seq: number; readonly value: A }>,
  query: ListQuery<A>
): Page<A> => {
  const after = query.afterSeq ?? 0
  const items: Array<A> = []
  let totalCount = 0
  let lastSeq: number | undefined
  let hasMore = false
  for (const r of rows) {
    if (query.where !== undefined && !query.where(r.value)) continue
    totalCount++
    if (r.seq <= after) continue
    if (items.length < query.limit) {
      items.push(r.value)
      lastSeq = r.seq
    } else hasMore = true
  }
  return { items, hasMore, lastSeq, totalCount }
}
