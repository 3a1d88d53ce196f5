import { Effect, Schema } from "effect"
import { type Collection, Store } from "../../ports/store.ts"
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
 * collection of the platform. `filter` turns the decoded query into a record predicate, and
 * `index` picks a secondary index when the query names one.
 */
export const listPage = <A, Q extends { readonly limit?: number; readonly cursor?: string }, V>(args: {
  readonly collection: Collection<A>
  readonly scope: string
  readonly querySchema: Schema.Schema<Q, any>
  readonly query: unknown
  readonly filter: (q: Q) => (a: A) => boolean
  readonly index?: (q: Q) => { readonly name: string; readonly value: string } | undefined
  readonly view: (a: A) => V
}) =>
  Effect.gen(function* () {
    const q = yield* decodeInput(args.querySchema)(args.query)
    const afterSeq = yield* decodeCursor(q.cursor)
    const index = args.index?.(q)
    const store = yield* Store
    const page = yield* store.list(args.collection, args.scope, {
      where: args.filter(q),
      limit: q.limit ?? DEFAULT_LIMIT,
      ...(afterSeq === undefined ? {} : { afterSeq }),
      ...(index === undefined ? {} : { index })
    })
    return toListResponse(page, args.view)
  })

export const optionalFilter = <T>(wanted: T | undefined, actual: T | undefined): boolean =>
  wanted === undefined || wanted === actual

