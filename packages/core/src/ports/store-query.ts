import { type Collection, type Condition, indexKeys, type ListQuery, type Page } from "./store.ts"

/** A stored record with its listing position. */
export interface Positioned<A> {
  readonly seq: number
  readonly value: A
}

type Range = Exclude<Condition, { readonly eq: string }>

export const isEquality = (c: Condition): c is { readonly index: string; readonly eq: string } => "eq" in c

/** Whether an index key satisfies a condition (string order: keys of ordered indexes sort). */
export const keyMatches = (key: string, c: Condition): boolean => {
  if (isEquality(c)) return key === c.eq
  const r = c as Range
  return (
    (r.gt === undefined || key > r.gt) &&
    (r.gte === undefined || key >= r.gte) &&
    (r.lt === undefined || key < r.lt) &&
    (r.lte === undefined || key <= r.lte)
  )
}

export const recordMatches = <A>(c: Collection<A>, cond: Condition, a: A): boolean =>
  indexKeys(c, cond.index, a).some((k) => keyMatches(k, cond))

/**
 * What a store can answer from its indexes without reading the collection: the primitives the
 * list planner below is written against. `index` undefined means the whole collection.
 */
export interface IndexReader<A> {
  /** How many records the collection (or one key of an index) holds: a counter, not a scan. */
  readonly count: (index: string | undefined, key: string | undefined) => number
  /**
   * Records after `afterSeq`, in listing order, at most `n`; `descending`: records before
   * `afterSeq` (Infinity: from the newest), newest first.
   */
  readonly pageAt: (index: string | undefined, key: string | undefined, afterSeq: number, n: number, descending: boolean) => ReadonlyArray<Positioned<A>>
  /** Every record under one key, in listing order. */
  readonly scanKey: (index: string, key: string) => Iterable<Positioned<A>>
  /** Every record with a key in the range of an ordered index, in any order, possibly repeated. */
  readonly scanRange: (index: string, range: Condition) => Iterable<Positioned<A>>
}

/**
 * Pages records that arrive in listing (`seq`) order, all of which match: counts them for
 * `totalCount`, skips up to `afterSeq`, and takes `limit`.
 */
export const pageOf = <A>(rows: Iterable<Positioned<A>>, query: ListQuery): Page<A> => {
  const descending = query.descending === true
  const after = query.afterSeq ?? (descending ? Infinity : 0)
  const items: Array<A> = []
  let totalCount = 0
  let lastSeq: number | undefined
  let hasMore = false
  for (const r of rows) {
    totalCount++
    if (descending ? r.seq >= after : r.seq <= after) continue
    if (items.length < query.limit) {
      items.push(r.value)
      lastSeq = r.seq
    } else hasMore = true
  }
  return { items, hasMore, lastSeq, totalCount }
}

/** Records in one range, each once, in listing order. */
export const rangeInOrder = <A>(rows: Iterable<Positioned<A>>): Array<Positioned<A>> => {
  const bySeq = new Map<number, Positioned<A>>()
  for (const r of rows) bySeq.set(r.seq, r)
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq)
}

/**
 * The one definition of a list page over declared indexes. No condition, or one equality: the
 * count is a counter and the page a seek, so the cost is the page's. Several conditions: the
 * equality with the fewest records (else the first range) drives, the others filter its rows
 * by the record's own index keys, and every match is counted.
 */
export const planList = <A>(c: Collection<A>, reader: IndexReader<A>, query: ListQuery): Page<A> => {
  const conditions = query.where ?? []
  const only = conditions[0]
  if (conditions.length === 0 || (conditions.length === 1 && only !== undefined && isEquality(only))) {
    const eq = only !== undefined && isEquality(only) ? only : undefined
    const descending = query.descending === true
    const rows = reader.pageAt(eq?.index, eq?.eq, query.afterSeq ?? (descending ? Infinity : 0), query.limit + 1, descending)
    const items = rows.slice(0, query.limit)
    return {
      items: items.map((r) => r.value),
      hasMore: rows.length > query.limit,
      lastSeq: items[items.length - 1]?.seq,
      totalCount: reader.count(eq?.index, eq?.eq)
    }
  }
  let driver: Condition = conditions[0]!
  let smallest = Infinity
  for (const cond of conditions)
    if (isEquality(cond)) {
      const n = reader.count(cond.index, cond.eq)
      if (n < smallest) [driver, smallest] = [cond, n]
    }
  const ascending = isEquality(driver) ? reader.scanKey(driver.index, driver.eq) : rangeInOrder(reader.scanRange(driver.index, driver))
  // Newest first: every match is read (and counted) anyway, so the reverse is of what is read.
  const rows = query.descending === true ? [...ascending].reverse() : ascending
  const rest = conditions.filter((cond) => cond !== driver)
  return pageOf(
    (function* () {
      for (const r of rows) if (rest.every((cond) => recordMatches(c, cond, r.value))) yield r
    })(),
    query
  )
}

/** The unique index keys of a record, in declaration order. */
export const uniqueKeys = <A>(c: Collection<A>, a: A): ReadonlyArray<readonly [string, string]> => {
  const out: Array<readonly [string, string]> = []
  for (const name in c.indexes) if (c.indexes[name]!.kind === "unique") for (const k of indexKeys(c, name, a)) out.push([name, k])
  return out
}
