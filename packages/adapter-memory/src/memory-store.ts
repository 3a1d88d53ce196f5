import { Effect, Layer, Option } from "effect"
import {
  type Collection,
  type Condition,
  indexKeys,
  type IndexReader,
  keyMatches,
  type ListQuery,
  type Page,
  planList,
  type Positioned,
  rangeInOrder,
  serialisedTransaction,
  singleWrite,
  Store,
  type StoreError,
  type StoreService,
  UniqueViolation,
  WritePermit
} from "@tessera/core"
import { SeqList, SortedKeys } from "./seq-list.ts"

interface Row {
  readonly seq: number
  readonly value: unknown
}

/**
 * Ids under one index key: a bare id for the common unique key, a SeqList once a key is shared.
 * Most index keys (emails, client ids, account ids) are unique, and a list per key would be the
 * largest allocation of a write.
 */
type IdsAtKey = string | SeqList

interface IndexState {
  readonly keys: Map<string, IdsAtKey>
  /** Ordered indexes only: the distinct keys, sorted. */
  readonly sorted: SortedKeys | undefined
}

/** One collection in one scope. `order` is listing order; `rows` answers by id. */
interface Shelf {
  readonly rows: Map<string, Row>
  readonly order: SeqList
  readonly indexes: Map<string, IndexState>
  /** The collection definition the indexes were last checked against (see `indexed`). */
  checked: Collection<unknown> | undefined
}

/** The whole world: cheap to copy because rows are immutable and shared between copies. */
interface World {
  seq: number
  /** Collection name → scope → shelf. */
  readonly shelves: Map<string, Map<string, Shelf>>
}

export interface Snapshot {
  readonly world: World
}

const emptyWorld = (): World => ({ seq: 0, shelves: new Map() })

const copyWorld = (w: World): World => {
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
      scopes.set(scope, { rows: new Map(s.rows), order: s.order.copy(), indexes, checked: s.checked })
    }
    shelves.set(name, scopes)
  }
  return { seq: w.seq, shelves }
}

type Undo = () => void

const NONE: ReadonlyArray<string> = []

/** A collection's index names, all and unique, computed once per definition (every put reads them). */
const names = new WeakMap<object, { readonly all: ReadonlyArray<string>; readonly unique: ReadonlyArray<string> }>()
const namesOf = (c: Collection<any>) => {
  let n = names.get(c)
  if (n === undefined) {
    const all = Object.keys(c.indexes)
    names.set(c, (n = { all, unique: all.filter((k) => c.indexes[k]!.kind === "unique") }))
  }
  return n
}

export interface MemoryStoreOptions {
  /**
   * Wraps every call and transaction hook; `AsyncMemoryStore` passes a real asynchronous
   * boundary here. Without it the store is synchronous.
   */
  readonly hop?: <X, E>(self: Effect.Effect<X, E>) => Effect.Effect<X, E>
}

/**
 * The reference `Store`: plain Maps, synchronous, with an undo log for atomic transactions and
 * snapshot / restore / fork so a property test can branch a world cheaply. An index the
 * collection declares that the shelf has not built (a definition changed since the records
 * were written) is built from the records on first use.
 */
export class MemoryStoreHandle {
  private world: World
  private undo: Array<Undo> | undefined = undefined
  private readonly permit = new WritePermit()
  readonly service: StoreService

  constructor(
    world: World = emptyWorld(),
    private readonly options: MemoryStoreOptions = {}
  ) {
    this.world = world
    const hop = options.hop
    const hook = (f: () => void) => (hop === undefined ? f : () => hop(Effect.sync(f)))
    const tx = serialisedTransaction(this.permit, {
      begin: hook(() => {
        this.undo = []
      }),
      commit: hook(() => {
        this.undo = undefined
      }),
      rollback: hook(() => {
        const log = this.undo ?? []
        this.undo = undefined
        for (let i = log.length - 1; i >= 0; i--) log[i]!()
      })
    })
    // A write outside any transaction is a transaction of one write.
    const write = singleWrite(tx)
    const service: StoreService = {
      // Reads of plain Maps cannot fail: one Effect step, as before the port had errors.
      get: (c, scope, id) => Effect.sync(() => this.get(c, scope, id)),
      put: (c, scope, value) => write<void, StoreError | UniqueViolation>(() => this.put(c, scope, value)) as never,
      remove: (c, scope, id) => write(() => this.remove(c, scope, id)),
      findBy: (c, scope, index, value) => Effect.sync(() => this.findBy(c, scope, index, value)),
      list: (c, scope, q) => Effect.sync(() => this.list(c, scope, q)),
      due: (c, scope, index, upTo, limit) => Effect.sync(() => this.due(c, scope, index, upTo, limit)),
      clear: (c, scope) => write(() => this.clear(c, scope)),
      transaction: tx
    }
    this.service =
      hop === undefined
        ? service
        : {
            get: (c, scope, id) => hop(service.get(c, scope, id)),
            put: (c, scope, value) => hop(service.put(c, scope, value)),
            remove: (c, scope, id) => hop(service.remove(c, scope, id)),
            findBy: (c, scope, index, value) => hop(service.findBy(c, scope, index, value)),
            list: (c, scope, q) => hop(service.list(c, scope, q)),
            due: (c, scope, index, upTo, limit) => hop(service.due(c, scope, index, upTo, limit)),
            clear: (c, scope) => hop(service.clear(c, scope)),
            transaction: tx
          }
  }

  snapshot(): Snapshot {
    return { world: copyWorld(this.world) }
  }
  restore(s: Snapshot): void {
    this.world = copyWorld(s.world)
  }
  /** An independent store starting from this one's current state. */
  fork(): MemoryStoreHandle {
    return new MemoryStoreHandle(copyWorld(this.world), this.options)
  }
  get layer(): Layer.Layer<Store> {
    return Layer.succeed(Store, this.service)
  }

  private shelf(c: Collection<unknown>, scope: string, create: boolean): Shelf | undefined {
    let byScope = this.world.shelves.get(c.name)
    if (byScope === undefined) {
      if (!create) return undefined
      this.world.shelves.set(c.name, (byScope = new Map()))
    }
    let s = byScope.get(scope)
    if (s === undefined) {
      if (!create) return undefined
      s = { rows: new Map(), order: new SeqList(), indexes: new Map(), checked: undefined }
      byScope.set(scope, s)
    }
    if (s.checked !== c) this.indexed(c, s)
    return s
  }

  /** Builds, from the records, every declared index the shelf has not built yet. */
  private indexed(c: Collection<unknown>, s: Shelf): void {
    s.checked = c
    for (const name of Object.keys(c.indexes)) {
      if (s.indexes.has(name)) continue
      this.indexState(c, s, name)
      for (const [id, row] of s.rows) for (const k of indexKeys(c, name, row.value)) this.indexAdd(s, name, k, id, row.seq)
    }
  }

  private indexState(c: Collection<unknown>, s: Shelf, name: string): IndexState {
    let idx = s.indexes.get(name)
    if (idx === undefined) s.indexes.set(name, (idx = { keys: new Map(), sorted: c.indexes[name]?.kind === "ordered" ? new SortedKeys() : undefined }))
    return idx
  }

  private get<A>(c: Collection<A>, scope: string, id: string): Option.Option<A> {
    const row = this.shelf(c as Collection<unknown>, scope, false)?.rows.get(id)
    return row === undefined ? Option.none() : Option.some(row.value as A)
  }

  private indexAdd(s: Shelf, name: string, key: string, id: string, seq: number): void {
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

  private indexDelete(s: Shelf, name: string, key: string, id: string, seq: number): void {
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
  private setIndexes<A>(c: Collection<A>, s: Shelf, id: string, seq: number, before: A | undefined, after: A | undefined): void {
    for (const name of namesOf(c).all) {
      const keys = c.indexes[name]!.keys
      const o = before === undefined ? undefined : keys(before)
      const n = after === undefined ? undefined : keys(after)
      if (o === n) continue
      // The common shapes without an array: one key or none on either side.
      if ((o === undefined || typeof o === "string") && (n === undefined || typeof n === "string")) {
        if (o !== undefined) this.indexDelete(s, name, o, id, seq)
        if (n !== undefined) this.indexAdd(s, name, n, id, seq)
        continue
      }
      const old = o === undefined ? NONE : typeof o === "string" ? [o] : o
      const next = n === undefined ? NONE : typeof n === "string" ? [n] : n
      for (const k of old) if (!next.includes(k)) this.indexDelete(s, name, k, id, seq)
      for (const k of next) if (!old.includes(k)) this.indexAdd(s, name, k, id, seq)
    }
  }

  /** Throws when another record holds one of the value's unique keys; checked before any write. */
  private checkUnique<A>(c: Collection<A>, s: Shelf, id: string, value: A): void {
    for (const name of namesOf(c).unique) {
      const k = c.indexes[name]!.keys(value)
      if (k === undefined) continue
      for (const key of typeof k === "string" ? [k] : k) {
        const ids = s.indexes.get(name)?.keys.get(key)
        const holder = ids === undefined ? undefined : typeof ids === "string" ? ids : ids.ids.find((x) => x !== id)
        if (holder !== undefined && holder !== id) throw new UniqueViolation({ collection: c.name, index: name, key, existingId: holder })
      }
    }
  }

  private put<A>(c: Collection<A>, scope: string, value: A): void {
    const s = this.shelf(c as Collection<unknown>, scope, true)!
    const id = c.idOf(value)
    this.checkUnique(c, s, id, value)
    const prev = s.rows.get(id)
    const row: Row = { seq: prev?.seq ?? ++this.world.seq, value }
    s.rows.set(id, row)
    if (prev === undefined) s.order.add(row.seq, id)
    this.setIndexes(c, s, id, row.seq, prev?.value as A | undefined, value)
    this.undo?.push(() => {
      this.setIndexes(c, s, id, row.seq, value, prev?.value as A | undefined)
      if (prev === undefined) {
        s.rows.delete(id)
        s.order.delete(row.seq)
      } else s.rows.set(id, prev)
    })
  }

  private remove<A>(c: Collection<A>, scope: string, id: string): boolean {
    const s = this.shelf(c as Collection<unknown>, scope, false)
    const prev = s?.rows.get(id)
    if (s === undefined || prev === undefined) return false
    s.rows.delete(id)
    s.order.delete(prev.seq)
    this.setIndexes(c, s, id, prev.seq, prev.value as A, undefined)
    // Re-inserting at the end would change the Map's order; rebuild it in seq order instead.
    this.undo?.push(() => {
      const rows = [...s.rows.entries(), [id, prev] as const].sort((a, b) => a[1].seq - b[1].seq)
      s.rows.clear()
      for (const [k, r] of rows) s.rows.set(k, r)
      s.order.add(prev.seq, id)
      this.setIndexes(c, s, id, prev.seq, undefined, prev.value as A)
    })
    return true
  }

  private clear<A>(c: Collection<A>, scope: string): number {
    const byScope = this.world.shelves.get(c.name)
    const s = byScope?.get(scope)
    if (byScope === undefined || s === undefined) return 0
    // The shelf goes whole (rows and indexes), so undo puts the same shelf back.
    byScope.delete(scope)
    this.undo?.push(() => void byScope.set(scope, s))
    return s.rows.size
  }

  private positioned(s: Shelf, id: string): Positioned<unknown> {
    return s.rows.get(id)!
  }

  /** Rows holding an index key, in listing order. */
  private indexedRows(s: Shelf, index: string, value: string): Array<Positioned<unknown>> {
    const ids = s.indexes.get(index)?.keys.get(value)
    if (ids === undefined) return []
    if (typeof ids === "string") return [this.positioned(s, ids)]
    return ids.ids.map((id) => this.positioned(s, id))
  }

  private findBy<A>(c: Collection<A>, scope: string, index: string, value: string): ReadonlyArray<A> {
    const s = this.shelf(c as Collection<unknown>, scope, false)
    return s === undefined ? [] : this.indexedRows(s, index, value).map((r) => r.value as A)
  }

  private reader(s: Shelf): IndexReader<unknown> {
    return {
      count: (index, key) => {
        if (index === undefined) return s.rows.size
        const ids = s.indexes.get(index)?.keys.get(key!)
        return ids === undefined ? 0 : typeof ids === "string" ? 1 : ids.size
      },
      pageAt: (index, key, afterSeq, n) => {
        if (index === undefined) return s.order.after(afterSeq, n).map((id) => this.positioned(s, id))
        const ids = s.indexes.get(index)?.keys.get(key!)
        if (ids === undefined) return []
        if (typeof ids === "string") {
          const row = this.positioned(s, ids)
          return row.seq > afterSeq && n > 0 ? [row] : []
        }
        return ids.after(afterSeq, n).map((id) => this.positioned(s, id))
      },
      scanKey: (index, key) => this.indexedRows(s, index, key),
      scanRange: (index, range) => this.range(s, index, range)
    }
  }

  private *range(s: Shelf, index: string, range: Condition): Iterable<Positioned<unknown>> {
    const idx = s.indexes.get(index)
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
      yield* this.indexedRows(s, index, k)
    }
  }

  private list<A>(c: Collection<A>, scope: string, q: ListQuery): Page<A> {
    const s = this.shelf(c as Collection<unknown>, scope, false)
    if (s === undefined) return { items: [], hasMore: false, lastSeq: undefined, totalCount: 0 }
    return planList(c as Collection<unknown>, this.reader(s), q) as Page<A>
  }

  private due<A>(c: Collection<A>, scope: string, index: string, upTo: string, limit: number): ReadonlyArray<A> {
    const s = this.shelf(c as Collection<unknown>, scope, false)
    if (s === undefined) return []
    return rangeInOrder(this.range(s, index, { index, lte: upTo }))
      .slice(0, limit)
      .map((r) => r.value as A)
  }
}

export const MemoryStore = {
  /** A fresh, empty in-memory store. */
  make: (): MemoryStoreHandle => new MemoryStoreHandle(),
  /** `Store` backed by a fresh in-memory world. */
  get layer(): Layer.Layer<Store> {
    return Layer.sync(Store, () => new MemoryStoreHandle().service)
  }
}

