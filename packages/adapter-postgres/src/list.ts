import { Effect } from "effect"
import type pg from "pg"
import type { Collection, Condition, ListQuery, Page, StoreError } from "@tessera/core"
import { type IndexReader, isEquality, planList, type Positioned } from "@tessera/core/store-kit"

export interface Row {
  readonly seq: string
  readonly data: string
}

type Query = <R extends pg.QueryResultRow>(text: string, values: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<R>, StoreError>

const positioned = <A>(r: Row): Positioned<A> => ({ seq: Number(r.seq), value: JSON.parse(r.data) as A })

const OPS = { gt: ">", gte: ">=", lt: "<", lte: "<=" } as const

/**
 * A list page. The planner shared by every store (`planList`) reads synchronously, so what it
 * will read is fetched first and handed to it: the page and the count for no condition or one
 * equality; for several conditions the count of each equality, then the rows of the condition
 * that drives (the equality with the fewest records, else the first range, as the planner
 * chooses). Either way the planner then decides the page, so every store answers alike.
 */
export const listPage = <A>(q: Query, c: Collection<A>, scope: string, query: ListQuery): Effect.Effect<Page<A>, StoreError> => {
  const count = (index: string | undefined, key: string | undefined) =>
    Effect.map(
      index === undefined || c.indexes[index]?.counted === true
        ? q<{ n: string }>(
            "SELECT n FROM record_counts WHERE collection = $1 AND scope = $2 AND name = $3 AND key = $4",
            [c.name, scope, index ?? "", index === undefined ? "" : key!]
          )
        : q<{ n: string }>(
            "SELECT count(*) AS n FROM record_index WHERE collection = $1 AND scope = $2 AND name = $3 AND key = $4",
            [c.name, scope, index, key!]
          ),
      (rows) => Number(rows[0]?.n ?? 0)
    )
  const conditions = query.where ?? []
  const only = conditions[0]

  if (conditions.length === 0 || (conditions.length === 1 && only !== undefined && isEquality(only))) {
    const eq = only !== undefined && isEquality(only) ? only : undefined
    const descending = query.descending === true
    const after = query.afterSeq ?? (descending ? Number.MAX_SAFE_INTEGER : 0)
    const cmp = descending ? "<" : ">"
    const order = descending ? "DESC" : "ASC"
    const page =
      eq === undefined
        ? q<Row>(
            `SELECT seq, data FROM records WHERE collection = $1 AND scope = $2 AND seq ${cmp} $3 ORDER BY seq ${order} LIMIT $4`,
            [c.name, scope, Math.min(after, Number.MAX_SAFE_INTEGER), query.limit + 1]
          )
        : q<Row>(
            `SELECT r.seq, r.data FROM record_index i JOIN records r ON r.seq = i.seq
             WHERE i.collection = $1 AND i.scope = $2 AND i.name = $3 AND i.key = $4 AND i.seq ${cmp} $5 ORDER BY i.seq ${order} LIMIT $6`,
            [c.name, scope, eq.index, eq.eq, Math.min(after, Number.MAX_SAFE_INTEGER), query.limit + 1]
          )
    return Effect.map(Effect.all([page, count(eq?.index, eq?.eq)]), ([rows, n]) => {
      const items = rows.slice(0, query.limit).map(positioned<A>)
      return { items: items.map((r) => r.value), hasMore: rows.length > query.limit, lastSeq: items[items.length - 1]?.seq, totalCount: n }
    })
  }

  return Effect.gen(function* () {
    const counts = new Map<string, number>()
    let driver: Condition = conditions[0]!
    let smallest = Infinity
    for (const cond of conditions)
      if (isEquality(cond)) {
        const n = yield* count(cond.index, cond.eq)
        counts.set(`${cond.index}\u0000${cond.eq}`, n)
        if (n < smallest) [driver, smallest] = [cond, n]
      }
    let rows: ReadonlyArray<Row>
    if (isEquality(driver))
      rows = yield* q<Row>(
        `SELECT r.seq, r.data FROM record_index i JOIN records r ON r.seq = i.seq
         WHERE i.collection = $1 AND i.scope = $2 AND i.name = $3 AND i.key = $4 ORDER BY i.seq`,
        [c.name, scope, driver.index, driver.eq]
      )
    else {
      const range = driver as Record<string, string | undefined>
      const ops = (["gt", "gte", "lt", "lte"] as const).filter((op) => range[op] !== undefined)
      rows = yield* q<Row>(
        `SELECT r.seq, r.data FROM record_index i JOIN records r ON r.seq = i.seq
         WHERE i.collection = $1 AND i.scope = $2 AND i.name = $3${ops.map((op, n) => ` AND i.key ${OPS[op]} $${n + 4}`).join("")}`,
        [c.name, scope, driver.index, ...ops.map((op) => range[op]!)]
      )
    }
    const fetched = rows.map(positioned<A>)
    // The planner reads only what was fetched: the counts of the equalities and the driver's rows.
    const reader: IndexReader<A> = {
      count: (index, key) => counts.get(`${index}\u0000${key}`) ?? 0,
      pageAt: () => [],
      scanKey: () => fetched,
      scanRange: () => fetched
    }
    return planList(c, reader, query)
  })
}
