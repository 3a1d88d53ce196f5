import { type Collection, type Condition, indexKeys, UniqueViolation } from "@tessera/core"
import { type IndexReader, keyMatches, type Positioned, twinsOf } from "@tessera/core/store-kit"
import { SeqList, SortedKeys } from "./seq-list.ts"

/**
 * The memory store's world and the index structures of one collection in one scope (a shelf):
 * pure functions over plain Maps and sorted arrays, so the store's class is only its lifecycle,
 * undo log and transactions.
 */

export interface Row {
  readonly seq: number
  readonly value: unknown
}

/**
 * Ids under one index key: a bare id for the common unique key, a SeqList once a key is shared.
 * Most index keys (emails, client ids, account ids) are unique, and a list per key would be the
 * largest allocation of a write.
 */
export type IdsAtKey = string | SeqList

export interface IndexState {
  readonly keys: Map<string, IdsAtKey>
  /** Ordered indexes only: the distinct keys, sorted. */
  readonly sorted: SortedKeys | undefined
}

/** One collection in one scope. `order` is listing order; `rows` answers by id. */
export interface Shelf {
  readonly rows: Map<string, Row>
  readonly order: SeqList
  readonly indexes: Map<string, IndexState>
  /** The collection definition the indexes were last checked against (see `indexed`). */
  checked: Collection<unknown> | undefined
  /** Its index names (`namesOf`), kept here because every put reads them. */
  names: Names | undefined
}

/** The whole world: cheap to copy because rows are immutable and shared between copies. */
export interface World {
  seq: number
  /** Collection name → scope → shelf. */
  readonly shelves: Map<string, Map<string, Shelf>>
}

export interface Snapshot {
  readonly world: World
}

export const emptyWorld = (): World => ({ seq: 0, shelves: new Map() })

export const copyWorld = (w: World): World => {
  const shelves = new Map<string, Map<string, Shelf>>()
  for (const [name, byScope] of w.shelves) {
    const scopes = new Map<string, Shelf>()
    for (const [scope, s] of byScope) {
      const indexes = new Map<string, IndexState>()
      for (const [index, idx] of s.indexes) {
        const keys = new Map<string, IdsAtKey>()
        for (const [v, ids] of idx.keys) keys.set(v, typeof ids === "string" ? ids : ids.copy())
        indexes.set(index, { keys, sorted: idx.sorted?.copy() })
      }
      scopes.set(scope, { rows: new Map(s.rows), order: s.order.copy(), indexes, checked: s.checked, names: s.names })
    }
    shelves.set(name, scopes)
  }
  return { seq: w.seq, shelves }
}

export type Undo = () => void

const NONE: ReadonlyArray<string> = []

/**
 * A collection's index names, computed once per definition (every put reads them): `all` the
 * indexes the shelf keeps entries for, `unique` those a put checks, `twin` the indexes answered
 * from the entries of a plain index they are a filter of (declared `within`, DECISIONS #421).
 */
export interface Names {
  readonly all: ReadonlyArray<string>
  readonly unique: ReadonlyArray<string>
  readonly twin: ReadonlyMap<string, string>
  /** Of `all`, those a put reads (a unique index, or the plain index a unique twin is answered from): built with the shelf. */
  readonly eager: ReadonlyArray<string>
}
const names = new WeakMap<object, Names>()
export const namesOf = (c: Collection<any>): Names => {
  let n = names.get(c)
  if (n === undefined) {
    const declared = Object.keys(c.indexes)
    const twin = twinsOf(c)
    const unique = declared.filter((k) => c.indexes[k]!.kind === "unique")
    const all = declared.filter((k) => !twin.has(k))
    const read = new Set(unique.map((k) => twin.get(k) ?? k))
    n = { all, unique, twin, eager: all.filter((k) => read.has(k)) }
    names.set(c, n)
  }
  return n
}

/** The names of `c`'s indexes: the shelf's copy when it was checked against `c` (every put reads them). */
const shelfNames = (c: Collection<any>, s: Shelf): Names => (s.checked === c ? s.names! : namesOf(c))

/**
 * Checks the shelf against `c`: builds, from the records, the indexes a put reads (`eager`) that
 * it has not built yet. The others are built at their first read (`built`, DECISIONS #532), so
 * a collection's writes keep no list filter up to date until something lists by it.
 */
export function indexed(c: Collection<unknown>, s: Shelf): void {
  s.checked = c
  s.names = namesOf(c)
  for (const name of s.names.eager) build(c, s, name)
}

function build(c: Collection<unknown>, s: Shelf, name: string): IndexState {
  let idx = s.indexes.get(name)
  if (idx !== undefined) return idx
  idx = indexState(c, s, name)
  for (const [id, row] of s.rows) for (const k of indexKeys(c, name, row.value)) indexAdd(s, name, k, id, row.seq)
  return idx
}

/** The entries of one of the checked collection's indexes (not a twin), built now if never read; undefined for an undeclared index. */
function built(s: Shelf, name: string): IndexState | undefined {
  const idx = s.indexes.get(name)
  if (idx !== undefined) return idx
  const c = s.checked
  return c === undefined || c.indexes[name] === undefined || s.names!.twin.has(name) ? undefined : build(c, s, name)
}

const holdsKey = (k: string | ReadonlyArray<string> | undefined, key: string): boolean =>
  k !== undefined && (typeof k === "string" ? k === key : k.includes(key))

/**
 * The ids under one key of an index. A twin's are its plain index's ids at the key whose records
 * the twin gives that key too (a handful at most: the key's records, deleted ones included).
 */
export function idsAt(s: Shelf, index: string, key: string): IdsAtKey | undefined {
  const twin = s.names?.twin
  const plain = twin === undefined || twin.size === 0 ? undefined : twin.get(index)
  if (plain === undefined) return built(s, index)?.keys.get(key)
  const ids = built(s, plain)?.keys.get(key)
  if (ids === undefined) return undefined
  const keys = s.checked!.indexes[index]!.keys
  if (typeof ids === "string") return holdsKey(keys(s.rows.get(ids)!.value), key) ? ids : undefined
  const kept = new SeqList()
  for (let i = 0; i < ids.size; i++) if (holdsKey(keys(s.rows.get(ids.ids[i]!)!.value), key)) kept.add(ids.seqs[i]!, ids.ids[i]!)
  return kept.size === 0 ? undefined : kept.size === 1 ? kept.ids[0]! : kept
}

export function indexState(c: Collection<unknown>, s: Shelf, name: string): IndexState {
  let idx = s.indexes.get(name)
  if (idx === undefined) s.indexes.set(name, (idx = { keys: new Map(), sorted: c.indexes[name]?.kind === "ordered" ? new SortedKeys() : undefined }))
  return idx
}

export function indexAdd(s: Shelf, name: string, key: string, id: string, seq: number): void {
  const idx = s.indexes.get(name)!
  const ids = idx.keys.get(key)
  if (ids === undefined || ids === id) {
    if (ids === undefined) idx.sorted?.add(key)
    idx.keys.set(key, id)
  } else if (typeof ids === "string") {
    const list = new SeqList()
    list.add(s.rows.get(ids)!.seq, ids)
    list.add(seq, id)
    idx.keys.set(key, list)
  } else ids.add(seq, id)
}

export function indexDelete(s: Shelf, name: string, key: string, id: string, seq: number): void {
  const idx = s.indexes.get(name)!
  const ids = idx.keys.get(key)
  if (ids === undefined) return
  if (typeof ids === "string") {
    if (ids === id) {
      idx.keys.delete(key)
      idx.sorted?.delete(key)
    }
    return
  }
  ids.delete(seq)
  if (ids.size === 1) idx.keys.set(key, ids.ids[0]!)
}

/**
 * Moves the record's index entries from `before`'s keys to `after`'s, touching only keys that
 * changed: an update that keeps a shared key (every active customer's) must not shift a list
 * of 100,000 ids out and back in.
 */
export function setIndexes<A>(c: Collection<A>, s: Shelf, id: string, seq: number, before: A | undefined, after: A | undefined): void {
  for (const name of shelfNames(c, s).all) {
    // An index never read has no entries to keep (`built`).
    if (!s.indexes.has(name)) continue
    const keys = c.indexes[name]!.keys
    const o = before === undefined ? undefined : keys(before)
    const n = after === undefined ? undefined : keys(after)
    if (o === n) continue
    // The common shapes without an array: one key or none on either side.
    if ((o === undefined || typeof o === "string") && (n === undefined || typeof n === "string")) {
      if (o !== undefined) indexDelete(s, name, o, id, seq)
      if (n !== undefined) indexAdd(s, name, n, id, seq)
      continue
    }
    const old = o === undefined ? NONE : typeof o === "string" ? [o] : o
    const next = n === undefined ? NONE : typeof n === "string" ? [n] : n
    for (const k of old) if (!next.includes(k)) indexDelete(s, name, k, id, seq)
    for (const k of next) if (!old.includes(k)) indexAdd(s, name, k, id, seq)
  }
}

/** Throws when another record holds one of the value's unique keys; checked before any write. */
export function checkUnique<A>(c: Collection<A>, s: Shelf, id: string, value: A): void {
  for (const name of shelfNames(c, s).unique) {
    const k = c.indexes[name]!.keys(value)
    if (k === undefined) continue
    for (const key of typeof k === "string" ? [k] : k) {
      const ids = idsAt(s, name, key)
      const holder = ids === undefined ? undefined : typeof ids === "string" ? ids : ids.ids.find((x) => x !== id)
      if (holder !== undefined && holder !== id) throw new UniqueViolation({ collection: c.name, index: name, key, existingId: holder })
    }
  }
}

export function positioned(s: Shelf, id: string): Positioned<unknown> {
  return s.rows.get(id)!
}

/** Rows holding an index key, in listing order. */
export function indexedRows(s: Shelf, index: string, value: string): Array<Positioned<unknown>> {
  const ids = idsAt(s, index, value)
  if (ids === undefined) return []
  if (typeof ids === "string") return [positioned(s, ids)]
  return ids.ids.map((id) => positioned(s, id))
}

export function reader(s: Shelf): IndexReader<unknown> {
  return {
    count: (index, key) => {
      if (index === undefined) return s.rows.size
      const ids = idsAt(s, index, key!)
      return ids === undefined ? 0 : typeof ids === "string" ? 1 : ids.size
    },
    pageAt: (index, key, afterSeq, n, descending) => {
      const page = (list: SeqList) => (descending ? list.before(afterSeq, n) : list.after(afterSeq, n)).map((id) => positioned(s, id))
      if (index === undefined) return page(s.order)
      const ids = idsAt(s, index, key!)
      if (ids === undefined) return []
      if (typeof ids === "string") {
        const row = positioned(s, ids)
        return (descending ? row.seq < afterSeq : row.seq > afterSeq) && n > 0 ? [row] : []
      }
      return page(ids)
    },
    scanKey: (index, key) => indexedRows(s, index, key),
    scanRange: (index, cond) => rangeRows(s, index, cond)
  }
}

export function* rangeRows(s: Shelf, index: string, range: Condition): Iterable<Positioned<unknown>> {
  // A twin's keys are among its plain index's: walk those, each answered through the twin.
  const idx = built(s, s.names?.twin.get(index) ?? index)
  if (idx === undefined) return
  const r = range as { readonly gt?: string; readonly gte?: string }
  const keys = idx.sorted?.from(r.gt ?? r.gte, r.gt !== undefined) ?? idx.keys.keys()
  const upper = range as { readonly lt?: string; readonly lte?: string }
  for (const k of keys) {
    if (!keyMatches(k, range)) {
      // Sorted keys past the upper bound end the walk; any other miss is skipped.
      if (idx.sorted !== undefined && ((upper.lt !== undefined && k >= upper.lt) || (upper.lte !== undefined && k > upper.lte))) return
      continue
    }
    yield* indexedRows(s, index, k)
  }
}
