import { Effect, Layer, Option } from "effect"
import {
  type Collection,
  type DirectPut,
  directBusy,
  type ListQuery,
  type Page,
  Store,
  type StoreError,
  type StoreService,
  type UniqueViolation
} from "@tessera/core"
import {
  planList,
  rangeInOrder,
  serialisedTransaction,
  singleWrite,
  WritePermit
} from "@tessera/core/store-kit"
import { SeqList } from "./seq-list.ts"
import {
  checkUnique,
  copyWorld,
  emptyWorld,
  indexed,
  indexedRows,
  rangeRows,
  reader,
  type Row,
  setIndexes,
  type Shelf,
  type Snapshot,
  type Undo,
  type World
} from "./shelf.ts"

export type { Snapshot } from "./shelf.ts"

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
      begin: hook(() => this.begin()),
      commit: hook(() => this.commit()),
      rollback: hook(() => this.rollback())
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
      transaction: tx,
      direct: {
        get service() {
          return service
        },
        transaction: (fiber, f) => this.direct(tx.holds(fiber), f)
      }
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

  private begin(): void {
    this.undo = []
  }
  private commit(): void {
    this.undo = undefined
  }
  private rollback(): void {
    const log = this.undo ?? []
    this.undo = undefined
    for (let i = log.length - 1; i >= 0; i--) log[i]!()
  }

  /** Whether a direct transaction is running `f` (a direct transaction inside it joins it). */
  private inDirect = false

  /**
   * `DirectWrites.transaction`: the Effect transaction's begin, commit and rollback, on the
   * caller's stack. Joined (inside the fiber's open transaction or another direct one), `f` only
   * writes. Each run gets its own `put`, which refuses to write once that run is over: a put kept
   * past it would write without the permit, into whatever transaction is open then.
   */
  private direct<X>(joined: boolean, f: (put: DirectPut) => X): X | typeof directBusy {
    if (joined || this.inDirect) return this.directRun(f)
    if (!this.permit.tryTake()) return directBusy
    this.begin()
    this.inDirect = true
    try {
      const x = this.directRun(f)
      this.commit()
      return x
    } catch (e) {
      this.rollback()
      throw e
    } finally {
      this.inDirect = false
      this.permit.release()
    }
  }
  private directRun<X>(f: (put: DirectPut) => X): X {
    let live = true
    const put: DirectPut = (c, scope, value) => {
      if (!live) throw new Error("a direct put was called after its transaction ended")
      this.put(c, scope, value)
    }
    try {
      return f(put)
    } finally {
      live = false
    }
  }

  snapshot(): Snapshot {
    return { world: copyWorld(this.world) }
  }
  restore(s: Snapshot): void {
    this.world = copyWorld(s.world)
  }
  /** How many records the store holds, every collection and scope (benchmarks report it). */
  recordCount(): number {
    let n = 0
    for (const byScope of this.world.shelves.values()) for (const s of byScope.values()) n += s.rows.size
    return n
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
      s = { rows: new Map(), order: new SeqList(), indexes: new Map(), checked: undefined, names: undefined }
      byScope.set(scope, s)
    }
    if (s.checked !== c) indexed(c, s)
    return s
  }

  private get<A>(c: Collection<A>, scope: string, id: string): Option.Option<A> {
    const row = this.shelf(c as Collection<unknown>, scope, false)?.rows.get(id)
    return row === undefined ? Option.none() : Option.some(row.value as A)
  }

  private put<A>(c: Collection<A>, scope: string, value: A): void {
    const s = this.shelf(c as Collection<unknown>, scope, true)!
    const id = c.idOf(value)
    checkUnique(c, s, id, value)
    const prev = s.rows.get(id)
    const row: Row = { seq: prev?.seq ?? ++this.world.seq, value }
    s.rows.set(id, row)
    if (prev === undefined) s.order.add(row.seq, id)
    setIndexes(c, s, id, row.seq, prev?.value as A | undefined, value)
    this.undo?.push(() => {
      setIndexes(c, s, id, row.seq, value, prev?.value as A | undefined)
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
    setIndexes(c, s, id, prev.seq, prev.value as A, undefined)
    // Re-inserting at the end would change the Map's order; rebuild it in seq order instead.
    this.undo?.push(() => {
      const rows = [...s.rows.entries(), [id, prev] as const].sort((a, b) => a[1].seq - b[1].seq)
      s.rows.clear()
      for (const [k, r] of rows) s.rows.set(k, r)
      s.order.add(prev.seq, id)
      setIndexes(c, s, id, prev.seq, undefined, prev.value as A)
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

  private findBy<A>(c: Collection<A>, scope: string, index: string, value: string): ReadonlyArray<A> {
    const s = this.shelf(c as Collection<unknown>, scope, false)
    return s === undefined ? [] : indexedRows(s, index, value).map((r) => r.value as A)
  }

  private list<A>(c: Collection<A>, scope: string, q: ListQuery): Page<A> {
    const s = this.shelf(c as Collection<unknown>, scope, false)
    if (s === undefined) return { items: [], hasMore: false, lastSeq: undefined, totalCount: 0 }
    return planList(c as Collection<unknown>, reader(s), q) as Page<A>
  }

  private due<A>(c: Collection<A>, scope: string, index: string, upTo: string, limit: number): ReadonlyArray<A> {
    const s = this.shelf(c as Collection<unknown>, scope, false)
    if (s === undefined) return []
    return rangeInOrder(rangeRows(s, index, { index, lte: upTo }))
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

