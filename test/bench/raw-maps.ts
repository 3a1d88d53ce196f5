// The baseline of the in-process creations on the memory store: the same records written into
// plain Maps, as the least any in-memory store does for them, measured in the same run. The
// creations' own figure has a target (50,000/s) but moved ±30% with the machine from one run to
// the next; beside this baseline the part says how much of a creation's time is the store's
// unavoidable work and how fast the machine was (DECISIONS #518).
import { Effect } from "effect"
import { type Collection, Store } from "@tessera/core"
import { twinsOf } from "@tessera/core/store-kit"
import type { Snapshot } from "@tessera/adapter-memory"

/** One record as the memory store holds it, with the collection it was put in. */
export interface RawRecord {
  readonly c: Collection<unknown>
  readonly scope: string
  readonly id: string
  readonly seq: number
  readonly value: unknown
}

/** What a snapshot's world holds (the memory store's own shapes, read without its types). */
interface WorldView {
  readonly world: { readonly shelves: ReadonlyMap<string, ReadonlyMap<string, { readonly rows: ReadonlyMap<string, { readonly seq: number; readonly value: unknown }>; readonly checked: Collection<unknown> | undefined }>> }
}

/** Every record of a memory store's snapshot, in the order they were first put. */
export const recordsOf = (s: Snapshot): Array<RawRecord> => {
  const out: Array<RawRecord> = []
  for (const byScope of (s as unknown as WorldView).world.shelves.values())
    for (const [scope, shelf] of byScope) {
      if (shelf.checked === undefined) continue
      for (const [id, row] of shelf.rows) out.push({ c: shelf.checked, scope, id, seq: row.seq, value: row.value })
    }
  return out.sort((a, b) => a.seq - b.seq)
}

/**
 * Reads every index of every collection and scope the records are in, once: the memory store
 * builds a list filter's index at its first read (DECISIONS #532), and after this it keeps every
 * index the baseline keeps, so the two do the same work.
 */
export const readEveryIndex = (records: ReadonlyArray<RawRecord>): Effect.Effect<void, never, Store> =>
  Effect.flatMap(Store, (store) => {
    const shelves = new Map<string, { readonly c: Collection<unknown>; readonly scope: string }>()
    for (const r of records) shelves.set(`${r.c.name}\u0000${r.scope}`, r)
    return Effect.forEach(shelves.values(), ({ c, scope }) => Effect.forEach(Object.keys(c.indexes), (index) => Effect.ignore(store.findBy(c, scope, index, "")), { discard: true }), { discard: true })
  })

/** Ids under one index key: one id, or the list of those that share it. */
type Ids = string | Array<string>

/**
 * Plain Maps per collection and scope: the records by id, the ids in listing order, and per index
 * (twins left out, as the store keeps none for them) each key's ids. A write looks its id and
 * each of its keys up before it sets them, as a store must to know a record is new and a key
 * free; it checks nothing else, validates nothing and keeps no undo.
 */
export class RawMaps {
  private readonly rows = new Map<string, Map<string, unknown>>()
  private readonly order = new Map<string, Array<string>>()
  private readonly index = new Map<string, Map<string, Ids>>()
  private readonly names = new Map<Collection<unknown>, ReadonlyArray<string>>()

  put(r: RawRecord): void {
    const at = `${r.c.name}\u0000${r.scope}`
    let rows = this.rows.get(at)
    if (rows === undefined) this.rows.set(at, (rows = new Map()))
    const isNew = rows.get(r.id) === undefined
    rows.set(r.id, r.value)
    if (isNew) {
      let order = this.order.get(at)
      if (order === undefined) this.order.set(at, (order = []))
      order.push(r.id)
    }
    let names = this.names.get(r.c)
    if (names === undefined) {
      const twins = twinsOf(r.c)
      this.names.set(r.c, (names = Object.keys(r.c.indexes).filter((k) => !twins.has(k))))
    }
    for (const name of names) {
      const keys = r.c.indexes[name]!.keys(r.value)
      if (keys === undefined) continue
      const where = `${at}\u0000${name}`
      let m = this.index.get(where)
      if (m === undefined) this.index.set(where, (m = new Map()))
      for (const key of typeof keys === "string" ? [keys] : keys) {
        const ids = m.get(key)
        if (ids === undefined || ids === r.id) m.set(key, r.id)
        else if (typeof ids === "string") m.set(key, [ids, r.id])
        // A new record's id is under none of its keys yet; a shared key's list is appended to.
        else if (isNew || !ids.includes(r.id)) ids.push(r.id)
      }
    }
  }

  /** Per collection and scope its record count, and per index its key count and ids held (for the baseline's test). */
  shape(): Record<string, number> {
    const out: Record<string, number> = {}
    for (const [k, m] of this.rows) out[`${k}\u0000rows`] = m.size
    for (const [k, m] of this.index) {
      out[`${k}\u0000keys`] = m.size
      out[`${k}\u0000ids`] = [...m.values()].reduce((n, ids) => n + (typeof ids === "string" ? 1 : ids.length), 0)
    }
    return out
  }

  /** An independent copy (the lists copied, the records shared), as the store's snapshots are. */
  copy(): RawMaps {
    const out = new RawMaps()
    for (const [k, m] of this.rows) out.rows.set(k, new Map(m))
    for (const [k, a] of this.order) out.order.set(k, [...a])
    for (const [k, m] of this.index) {
      const c = new Map<string, Ids>()
      for (const [key, ids] of m) c.set(key, typeof ids === "string" ? ids : [...ids])
      out.index.set(k, c)
    }
    for (const [c, n] of this.names) out.names.set(c, n)
    return out
  }
}

/**
 * The baseline's measurement for a fixed world: `seed` written once and copied before each batch
 * (untimed, as the store's world is restored), then `batch` written; records per second of
 * batch time, counted in creations (`perCreation` records each).
 */
export const rawMapsCreations = (seed: ReadonlyArray<RawRecord>, batch: ReadonlyArray<RawRecord>, perCreation: number) => {
  const world = new RawMaps()
  for (const r of seed) world.put(r)
  return async (seconds: number) => {
    let wallMs = 0
    let records = 0
    const until = performance.now() + seconds * 1000
    while (performance.now() < until) {
      const maps = world.copy()
      const t0 = performance.now()
      for (const r of batch) maps.put(r)
      wallMs += performance.now() - t0
      records += batch.length
    }
    return records / perCreation / (wallMs / 1000)
  }
}
