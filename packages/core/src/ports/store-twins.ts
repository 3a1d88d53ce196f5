import type { Collection, Condition } from "./store.ts"
import { type IndexReader, type Positioned, recordMatches } from "./store-query.ts"

const twins = new WeakMap<object, ReadonlyMap<string, string>>()

/**
 * The indexes a store may answer from a plain index's entries instead of keeping their own
 * (declared `within` it, DECISIONS #421): each maps to its plain index. A `within` naming no plain
 * index of the collection (or one that is itself `within` another) maps to nothing, so the index
 * is kept as any other.
 */
export const twinsOf = (c: Collection<any>): ReadonlyMap<string, string> => {
  let t = twins.get(c)
  if (t === undefined) {
    const m = new Map<string, string>()
    for (const name of Object.keys(c.indexes)) {
      const plain = c.indexes[name]!.within
      if (plain !== undefined && plain !== name && c.indexes[plain]?.kind === "plain" && c.indexes[plain]?.within === undefined) m.set(name, plain)
    }
    twins.set(c, (t = m))
  }
  return t
}

/**
 * A reader that answers each twin index from its plain index: the plain index's records under
 * the key (or in the range), those whose twin keys match kept. Every key a twin gives a record
 * is one its plain index gives it, so nothing is missed; a key's records are the few sharing it.
 */
export const withTwins = <A>(c: Collection<A>, base: IndexReader<A>): IndexReader<A> => {
  const t = twinsOf(c)
  if (t.size === 0) return base
  const kept = (index: string, cond: Condition, rows: Iterable<Positioned<A>>): Array<Positioned<A>> => {
    const out: Array<Positioned<A>> = []
    for (const r of rows) if (recordMatches(c, { ...cond, index }, r.value)) out.push(r)
    return out
  }
  const scanKey = (index: string, key: string) => {
    const plain = t.get(index)
    return plain === undefined ? base.scanKey(index, key) : kept(index, { index, eq: key }, base.scanKey(plain, key))
  }
  return {
    count: (index, key) => (index !== undefined && t.has(index) ? [...scanKey(index, key!)].length : base.count(index, key)),
    pageAt: (index, key, afterSeq, n, descending) => {
      if (index === undefined || !t.has(index)) return base.pageAt(index, key, afterSeq, n, descending)
      const rows = [...scanKey(index, key!)]
      return (descending ? rows.reverse().filter((r) => r.seq < afterSeq) : rows.filter((r) => r.seq > afterSeq)).slice(0, n)
    },
    scanKey,
    scanRange: (index, range) => {
      const plain = t.get(index)
      return plain === undefined ? base.scanRange(index, range) : kept(index, range, base.scanRange(plain, { ...range, index: plain }))
    }
  }
}
