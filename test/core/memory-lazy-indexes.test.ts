// The memory store builds a list filter's index at its first read (DECISIONS #532). Whatever
// the moment of that first read (before, between or inside transactions, before a rollback, a
// removal or a restore), every read answers what a plain list of the records answers, as it
// does when every index is read before the first write.
import { describe, expect, it } from "vitest"
import { Effect, Exit } from "effect"
import * as fc from "fast-check"
import { collection, sortableInstant, Store, type StoreService } from "@tessera/core"
import { MemoryStore, type MemoryStoreHandle } from "@tessera/adapter-memory"

interface Item {
  readonly id: string
  readonly owner: string
  readonly tags: ReadonlyArray<string>
  readonly at?: number | undefined
  readonly live: boolean
  readonly handle: string
}

const Items = collection<Item>()("lazyItems", (i) => i.id, {
  liveHandle: { kind: "unique", within: "handle", keys: (i) => (i.live ? i.handle : undefined) },
  handle: { kind: "plain", keys: (i) => i.handle },
  owner: { kind: "plain", counted: true, keys: (i) => i.owner },
  // A plain twin: answered from `owner`'s entries, which are built at its first read.
  liveOwner: { kind: "plain", within: "owner", keys: (i) => (i.live ? i.owner : undefined) },
  tags: { kind: "plain", keys: (i) => i.tags },
  at: { kind: "ordered", keys: (i) => (i.at === undefined ? undefined : sortableInstant(Date.UTC(2026, 0, 1) + i.at)) }
})
const indexes = Object.keys(Items.indexes)
const SCOPE = "p"

const item = fc.record({
  id: fc.constantFrom("a", "b", "c", "d", "e"),
  owner: fc.constantFrom("o1", "o2"),
  tags: fc.uniqueArray(fc.constantFrom("x", "y", "z"), { maxLength: 2 }),
  at: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
  live: fc.boolean(),
  handle: fc.constantFrom("h1", "h2", "h3")
})
const key = fc.constantFrom("o1", "o2", "x", "y", "z", "h1", "h2", "h3")
type Op =
  | { readonly kind: "put"; readonly item: Item }
  | { readonly kind: "remove"; readonly id: string }
  | { readonly kind: "read"; readonly index: string; readonly key: string }
  | { readonly kind: "due" }
  | { readonly kind: "count" }
  | { readonly kind: "clear" }
  | { readonly kind: "snapshot" }
  | { readonly kind: "restore" }
const step: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: item.map((i) => ({ kind: "put" as const, item: i })) },
  { weight: 2, arbitrary: fc.constantFrom("a", "b", "c").map((id) => ({ kind: "remove" as const, id })) },
  { weight: 3, arbitrary: fc.record({ index: fc.constantFrom(...indexes), key }).map((r) => ({ kind: "read" as const, ...r })) },
  { weight: 1, arbitrary: fc.constantFrom({ kind: "due" as const }, { kind: "count" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "clear" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "snapshot" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "restore" as const }) }
)
/** A batch: its steps alone, or in one transaction that commits or fails after its last step. */
const batch = fc.record({ steps: fc.array(step, { minLength: 1, maxLength: 5 }), tx: fc.constantFrom("none", "commit", "rollback") })

const KEYS = ["o1", "o2", "x", "y", "z", "h1", "h2", "h3"]
const AT3 = sortableInstant(Date.UTC(2026, 0, 1) + 3)!

/** What every index answers for every key, the ordered index's due records and the counted index's count. */
const everything = (s: StoreService) =>
  Effect.gen(function* () {
    const out: Record<string, unknown> = {}
    for (const index of indexes) for (const k of KEYS) out[`${index}=${k}`] = (yield* s.findBy(Items, SCOPE, index, k)).map((i) => i.id)
    out["at<=3"] = (yield* s.due(Items, SCOPE, "at", AT3, 10)).map((i) => i.id)
    out["count o1"] = (yield* s.list(Items, SCOPE, { where: [{ index: "owner", eq: "o1" }], limit: 10 })).totalCount
    return out
  })

/** The same answers from a plain list of the records in listing order (no index at all). */
const modelAnswers = (items: ReadonlyArray<Item>) => {
  const holds = (index: string, i: Item, k: string) => {
    const keys = Items.indexes[index as keyof typeof Items.indexes].keys(i)
    return keys === undefined ? false : typeof keys === "string" ? keys === k : keys.includes(k)
  }
  const out: Record<string, unknown> = {}
  for (const index of indexes) for (const k of KEYS) out[`${index}=${k}`] = items.filter((i) => holds(index, i, k)).map((i) => i.id)
  out["at<=3"] = items.filter((i) => i.at !== undefined && i.at <= 3).map((i) => i.id)
  out["count o1"] = items.filter((i) => i.owner === "o1").length
  return out
}

/** The model's put: refused when another live record holds the handle; a replaced record keeps its place. */
const modelPut = (items: Array<Item>, i: Item): Array<Item> => {
  if (i.live && items.some((o) => o.id !== i.id && o.live && o.handle === i.handle)) return items
  const at = items.findIndex((o) => o.id === i.id)
  return at < 0 ? [...items, i] : items.map((o, k) => (k === at ? i : o))
}

const run = (handle: MemoryStoreHandle) => <A, E>(self: Effect.Effect<A, E, Store>) => Effect.runSyncExit(Effect.provideService(self, Store, handle.service))

type Batch = { readonly steps: ReadonlyArray<Op>; readonly tx: string }

/** Plays the batches on a store (`readFirst`: every index read before anything else) and on the model; answers of both. */
const play = (batches: ReadonlyArray<Batch>, readFirst: boolean) => {
  const handle = MemoryStore.make()
  const exec = run(handle)
  if (readFirst) {
    // A shelf exists once something is put in it: a sentinel, removed, then every index read.
    exec(handle.service.put(Items, SCOPE, { id: "sentinel", owner: "o1", tags: ["x"], live: false, handle: "h1" }))
    exec(handle.service.remove(Items, SCOPE, "sentinel"))
    exec(everything(handle.service))
  }
  let saved = { snapshot: handle.snapshot(), items: [] as Array<Item> }
  let items: Array<Item> = []
  const store: Array<unknown> = []
  const model: Array<unknown> = []
  for (const b of batches) {
    let next = items
    const body = Effect.gen(function* () {
      const s = yield* Store
      for (const op of b.steps) {
        if (op.kind === "put") {
          yield* Effect.exit(s.put(Items, SCOPE, op.item))
          next = modelPut(next, op.item)
        } else if (op.kind === "remove") {
          yield* s.remove(Items, SCOPE, op.id)
          next = next.filter((i) => i.id !== op.id)
        } else if (op.kind === "clear") {
          yield* s.clear(Items, SCOPE)
          next = []
        } else if (op.kind === "read") {
          // Where the store builds an index it has not read yet: inside the batch's transaction too.
          store.push((yield* s.findBy(Items, SCOPE, op.index, op.key)).map((i) => i.id))
          model.push(modelAnswers(next)[`${op.index}=${op.key}`])
        } else if (op.kind === "due") {
          store.push((yield* s.due(Items, SCOPE, "at", AT3, 10)).map((i) => i.id))
          model.push(modelAnswers(next)["at<=3"])
        } else if (op.kind === "count") {
          store.push((yield* s.list(Items, SCOPE, { where: [{ index: "owner", eq: "o1" }], limit: 10 })).totalCount)
          model.push(modelAnswers(next)["count o1"])
        }
      }
      if (b.tx === "rollback") return yield* Effect.fail("rolled back")
    })
    if (b.tx === "none") exec(body)
    else exec(Effect.flatMap(Store, (s) => s.transaction(body)))
    if (b.tx !== "rollback") items = next
    // Snapshots and restores between batches (the store's API is outside transactions).
    for (const op of b.steps) {
      if (op.kind === "snapshot") saved = { snapshot: handle.snapshot(), items }
      else if (op.kind === "restore") {
        handle.restore(saved.snapshot)
        items = saved.items
      }
    }
    store.push(exec(everything(handle.service)).pipe(Exit.getOrElse(() => "failed")))
    model.push(modelAnswers(items))
  }
  return { store, model }
}

describe("the memory store's indexes built at first read", () => {
  it("answer every read as a plain list of the records does, whenever they are first read (property)", () => {
    fc.assert(
      fc.property(fc.array(batch, { minLength: 1, maxLength: 8 }), fc.boolean(), (batches, readFirst) => {
        const { store, model } = play(batches, readFirst)
        expect(store).toEqual(model)
      }),
      { numRuns: 300 }
    )
  })

  it("keep no entries for a list filter until something reads it, and all of them after", () => {
    const handle = MemoryStore.make()
    const exec = run(handle)
    for (const id of ["a", "b", "c"]) exec(handle.service.put(Items, SCOPE, { id, owner: "o1", tags: ["x"], live: true, handle: `h-${id}` }))
    const kept = () => [...(handle.snapshot() as unknown as { world: { shelves: Map<string, Map<string, { indexes: Map<string, unknown> }>> } }).world.shelves.get("lazyItems")!.get(SCOPE)!.indexes.keys()].sort()
    // The unique index's entries (kept in its plain twin's) are there from the first put.
    expect(kept()).toEqual(["handle"])
    // A twin's first read builds the plain index it is answered from, and only that.
    const live = exec(handle.service.findBy(Items, SCOPE, "liveOwner", "o1"))
    expect(Exit.isSuccess(live) && live.value.map((i) => i.id)).toEqual(["a", "b", "c"])
    expect(kept()).toEqual(["handle", "owner"])
    expect(Exit.isSuccess(exec(handle.service.put(Items, SCOPE, { id: "d", owner: "o2", tags: [], live: true, handle: "h-a" })))).toBe(false)
    const page = exec(handle.service.list(Items, SCOPE, { where: [{ index: "owner", eq: "o1" }], limit: 2 }))
    expect(Exit.isSuccess(page) && [page.value.items.map((i) => i.id), page.value.totalCount]).toEqual([["a", "b"], 3])
    expect(kept()).toEqual(["handle", "owner"])
    exec(handle.service.findBy(Items, SCOPE, "tags", "x"))
    expect(kept()).toEqual(["handle", "owner", "tags"])
    exec(handle.service.put(Items, SCOPE, { id: "d", owner: "o1", tags: [], live: true, handle: "h-d" }))
    const after = exec(handle.service.findBy(Items, SCOPE, "owner", "o1"))
    expect(Exit.isSuccess(after) && after.value.map((i) => i.id)).toEqual(["a", "b", "c", "d"])
  })
})
