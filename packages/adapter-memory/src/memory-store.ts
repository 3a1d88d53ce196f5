import { Effect, Layer, Option } from "effect"
import {
  type Collection,
  indexKeys,
  type ListQuery,
  type Page,
  pageOf,
  serialisedTransaction,
  singleWrite,
  Store,
  type StoreService,
  WritePermit
} from "@tessera/core"

interface Row {
  readonly seq: number
  readonly value: unknown
}

/**
 * Ids under one index key: a bare id for the common unique key, a Set once a key is shared.
 * Most index keys (emails, client ids, account ids) are unique, and a Set per key would be the
 * largest allocation of a write.
 */
type IdsAtKey = string | Set<string>

/** One collection in one scope. A Map iterates in insertion order, which is listing order. */
interface Shelf {
  readonly rows: Map<string, Row>
  readonly indexes: Map<string, Map<string, IdsAtKey>>
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
      const indexes = new Map<string, Map<string, IdsAtKey>>()
      for (const [index, idx] of s.indexes) {
        const copy = new Map<string, IdsAtKey>()
        for (const [v, ids] of idx) copy.set(v, typeof ids === "string" ? ids : new Set(ids))
        indexes.set(index, copy)
      }
      scopes.set(scope, { rows: new Map(s.rows), indexes })
    }
    shelves.set(name, scopes)
  }
  return { seq: w.seq, shelves }
}

type Undo = () => void

/**
 * The reference `Store`: plain Maps, synchronous, with an undo log for atomic transactions and
 * snapshot / restore / fork so a property test can branch a world cheaply.
 */
export class MemoryStoreHandle {
  private world: World
  private undo: Array<Undo> | undefined = undefined
  private readonly permit = new WritePermit()
  readonly service: StoreService

  constructor(world: World = emptyWorld()) {
    this.world = world
    const tx = serialisedTransaction(this.permit, {
      begin: () => {
        this.undo = []
      },
      commit: () => {
        this.undo = undefined
      },
      rollback: () => {
        const log = this.undo ?? []
        this.undo = undefined
        for (let i = log.length - 1; i >= 0; i--) log[i]!()
      }
    })
    // A write outside any transaction is a transaction of one write.
    const write = singleWrite(tx)
    this.service = {
      get: (c, scope, id) => Effect.sync(() => this.get(c, scope, id)),
      put: (c, scope, value) => write(() => this.put(c, scope, value)),
      remove: (c, scope, id) => write(() => this.remove(c, scope, id)),
      findBy: (c, scope, index, value) => Effect.sync(() => this.findBy(c, scope, index, value)),
      list: (c, scope, q) => Effect.sync(() => this.list(c, scope, q)),
      clear: (c, scope) => write(() => this.clear(c, scope)),
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
    return new MemoryStoreHandle(copyWorld(this.world))
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
    if (s === undefined && create) {
      s = { rows: new Map(), indexes: new Map() }
      byScope.set(scope, s)
    }
    return s
  }

  private get<A>(c: Collection<A>, scope: string, id: string): Option.Option<A> {
    const row = this.shelf(c as Collection<unknown>, scope, false)?.rows.get(id)
    return row === undefined ? Option.none() : Option.some(row.value as A)
  }

  private indexAdd(s: Shelf, name: string, key: string, id: string): void {
    let idx = s.indexes.get(name)
    if (idx === undefined) s.indexes.set(name, (idx = new Map()))
    const ids = idx.get(key)
    if (ids === undefined || ids === id) idx.set(key, id)
    else if (typeof ids === "string") idx.set(key, new Set([ids, id]))
    else ids.add(id)
  }

  private indexDelete(s: Shelf, name: string, key: string, id: string): void {
    const idx = s.indexes.get(name)
    const ids = idx?.get(key)
    if (ids === undefined) return
    if (typeof ids === "string") {
      if (ids === id) idx!.delete(key)
      return
    }
    ids.delete(id)
    if (ids.size === 1) idx!.set(key, ids.values().next().value!)
  }

  private setIndexes<A>(c: Collection<A>, s: Shelf, id: string, before: A | undefined, after: A | undefined): void {
    for (const name of Object.keys(c.indexes)) {
      if (before !== undefined) for (const k of indexKeys(c, name, before)) this.indexDelete(s, name, k, id)
      if (after !== undefined) for (const k of indexKeys(c, name, after)) this.indexAdd(s, name, k, id)
    }
  }

  private put<A>(c: Collection<A>, scope: string, value: A): void {
    const s = this.shelf(c as Collection<unknown>, scope, true)!
    const id = c.idOf(value)
    const prev = s.rows.get(id)
    const row: Row = { seq: prev?.seq ?? ++this.world.seq, value }
    s.rows.set(id, row)
    this.setIndexes(c, s, id, prev?.value as A | undefined, value)
    this.undo?.push(() => {
      this.setIndexes(c, s, id, value, prev?.value as A | undefined)
      if (prev === undefined) s.rows.delete(id)
      else s.rows.set(id, prev)
    })
  }

  private remove<A>(c: Collection<A>, scope: string, id: string): boolean {
    const s = this.shelf(c as Collection<unknown>, scope, false)
    const prev = s?.rows.get(id)
    if (s === undefined || prev === undefined) return false
    s.rows.delete(id)
    this.setIndexes(c, s, id, prev.value as A, undefined)
    // Re-inserting at the end would change listing order; rebuild the Map in seq order instead.
    this.undo?.push(() => {
      const rows = [...s.rows.entries(), [id, prev] as const].sort((a, b) => a[1].seq - b[1].seq)
      s.rows.clear()
      for (const [k, r] of rows) s.rows.set(k, r)
      this.setIndexes(c, s, id, undefined, prev.value as A)
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

  /** Rows holding an index key, in listing order. */
  private indexedRows(s: Shelf, index: string, value: string): Array<Row> {
    const ids = s.indexes.get(index)?.get(value)
    if (ids === undefined) return []
    if (typeof ids === "string") return [s.rows.get(ids)!]
    return [...ids].map((id) => s.rows.get(id)!).sort((a, b) => a.seq - b.seq)
  }

  private findBy<A>(c: Collection<A>, scope: string, index: string, value: string): ReadonlyArray<A> {
    const s = this.shelf(c as Collection<unknown>, scope, false)
    return s === undefined ? [] : this.indexedRows(s, index, value).map((r) => r.value as A)
  }

  private list<A>(c: Collection<A>, scope: string, q: ListQuery<A>): Page<A> {
    const s = this.shelf(c as Collection<unknown>, scope, false)
    if (s === undefined) return { items: [], hasMore: false, lastSeq: undefined, totalCount: 0 }
    const rows = q.index === undefined ? s.rows.values() : this.indexedRows(s, q.index.name, q.index.value)
    return pageOf(rows as Iterable<{ readonly seq: number; readonly value: A }>, q)
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
