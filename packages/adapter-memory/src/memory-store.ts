import { Effect, Layer, Option } from "effect"
import {
  type Collection,
  indexKeys,
  type ListQuery,
  type Page,
  pageOf,
  serialisedTransaction,
  Store,
  type StoreService,
  WritePermit
} from "@tessera/core"

interface Row {
  readonly seq: number
  readonly value: unknown
}

/** One collection in one scope. A Map iterates in insertion order, which is listing order. */
interface Shelf {
  readonly rows: Map<string, Row>
  readonly indexes: Map<string, Map<string, Set<string>>>
}

/** The whole world: cheap to copy because rows are immutable and shared between copies. */
interface World {
  seq: number
  readonly shelves: Map<string, Shelf>
}

export interface Snapshot {
  readonly world: World
}

const emptyWorld = (): World => ({ seq: 0, shelves: new Map() })

const copyWorld = (w: World): World => {
  const shelves = new Map<string, Shelf>()
  for (const [k, s] of w.shelves) {
    const indexes = new Map<string, Map<string, Set<string>>>()
    for (const [name, idx] of s.indexes) {
      const copy = new Map<string, Set<string>>()
      for (const [v, ids] of idx) copy.set(v, new Set(ids))
      indexes.set(name, copy)
    }
    shelves.set(k, { rows: new Map(s.rows), indexes })
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
    const write = <X>(f: () => X): Effect.Effect<X> => tx(Effect.sync(f))
    this.service = {
      get: (c, scope, id) => Effect.sync(() => this.get(c, scope, id)),
      put: (c, scope, value) => write(() => this.put(c, scope, value)),
      remove: (c, scope, id) => write(() => this.remove(c, scope, id)),
      findBy: (c, scope, index, value) => Effect.sync(() => this.findBy(c, scope, index, value)),
      list: (c, scope, q) => Effect.sync(() => this.list(c, scope, q)),
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
    const key = `${c.name}\u0000${scope}`
    let s = this.world.shelves.get(key)
    if (s === undefined && create) {
      s = { rows: new Map(), indexes: new Map() }
      this.world.shelves.set(key, s)
    }
    return s
  }

  private get<A>(c: Collection<A>, scope: string, id: string): Option.Option<A> {
    const row = this.shelf(c as Collection<unknown>, scope, false)?.rows.get(id)
    return row === undefined ? Option.none() : Option.some(row.value as A)
  }

  private log(u: Undo): void {
    this.undo?.push(u)
  }

  private indexAdd(s: Shelf, name: string, key: string, id: string): void {
    let idx = s.indexes.get(name)
    if (idx === undefined) s.indexes.set(name, (idx = new Map()))
    let ids = idx.get(key)
    if (ids === undefined) idx.set(key, (ids = new Set()))
    ids.add(id)
  }

  private indexDelete(s: Shelf, name: string, key: string, id: string): void {
    const idx = s.indexes.get(name)
    const ids = idx?.get(key)
    if (ids === undefined) return
    ids.delete(id)
    if (ids.size === 0) idx!.delete(key)
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
    this.log(() => {
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
    this.log(() => {
      const rows = [...s.rows.entries(), [id, prev] as const].sort((a, b) => a[1].seq - b[1].seq)
      s.rows.clear()
      for (const [k, r] of rows) s.rows.set(k, r)
      this.setIndexes(c, s, id, undefined, prev.value as A)
    })
    return true
  }

  /** Rows holding an index key, in listing order. */
  private indexedRows(s: Shelf, index: string, value: string): Array<Row> {
    const ids = s.indexes.get(index)?.get(value)
    return ids === undefined ? [] : [...ids].map((id) => s.rows.get(id)!).sort((a, b) => a.seq - b.seq)
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
