import { Effect, Schema } from "effect"
import { type Collection, type Condition, sortableTimestamp, Store } from "../../ports/store.ts"
import { CursorParam, decodeCursor, LimitParam, toListResponse } from "../../domain/pagination.ts"
import { DEFAULT_LIMIT } from "../../limits.ts"
import { optional } from "../../domain/common.ts"
import { decodeInput } from "../../domain/field-errors.ts"

/** The query parameters every paginated list shares. */
export const pageParams = {
  limit: optional(LimitParam),
  cursor: optional(CursorParam)
}

/**
 * Decodes a list endpoint's query (every bad parameter reported), then pages through one
 * collection of the platform. `where` turns the decoded query into conditions on the
 * collection's declared indexes, which the store answers without reading the whole scope.
 */
export const listPage = <A, Q extends { readonly limit?: number; readonly cursor?: string }, V>(args: {
  readonly collection: Collection<A>
  readonly scope: string
  readonly querySchema: Schema.Schema<Q, any>
  readonly query: unknown
  readonly where: (q: Q) => ReadonlyArray<Condition | undefined>
  readonly view: (a: A) => V
  /** Newest first (`sortOrder=desc`). */
  readonly descending?: (q: Q) => boolean
}) =>
  Effect.gen(function* () {
    const q = yield* decodeInput(args.querySchema)(args.query)
    const afterSeq = yield* decodeCursor(q.cursor)
    const store = yield* Store
    const page = yield* store.list(args.collection, args.scope, {
      where: args.where(q).filter((c) => c !== undefined),
      limit: q.limit ?? DEFAULT_LIMIT,
      ...(args.descending?.(q) === true ? { descending: true } : {}),
      ...(afterSeq === undefined ? {} : { afterSeq })
    })
    return toListResponse(page, args.view)
  })

/** Equality on an index when the query gives a value, else no condition. */
export const equal = (index: string, value: string | undefined): Condition | undefined =>
  value === undefined ? undefined : { index, eq: value }

/** A key no ordered index holds: a bound that is no instant matches nothing, as before. */
const NOTHING = ""

/** Strictly after an instant, on an ordered index of instants (bounds of any offset compare as instants). */
export const after = (index: string, bound: string | undefined): Condition | undefined =>
  bound === undefined ? undefined : { index, gt: sortableTimestamp(bound) ?? "\uffff" }

/** Strictly before an instant, on an ordered index of instants. */
export const before = (index: string, bound: string | undefined): Condition | undefined =>
  bound === undefined ? undefined : { index, lt: sortableTimestamp(bound) ?? NOTHING }


/** At or after an instant (the reference's inclusive date filters); a bound that is no instant matches nothing. */
export const atOrAfter = (index: string, bound: string | undefined): Condition | undefined =>
  bound === undefined ? undefined : { index, gte: sortableTimestamp(bound) ?? "\uffff" }

/** At or before an instant, inclusive. */
export const atOrBefore = (index: string, bound: string | undefined): Condition | undefined =>
  bound === undefined ? undefined : { index, lte: sortableTimestamp(bound) ?? NOTHING }
