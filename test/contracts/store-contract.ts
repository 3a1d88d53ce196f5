import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber, Layer, Option } from "effect"
import * as fc from "fast-check"
import { collection, Store } from "@tessera/core"
import { failureCases } from "./store-contract-failures.ts"
import { indexCases } from "./store-contract-indexes.ts"

export interface Doc {
  readonly id: string
  readonly owner: string
  readonly tags: ReadonlyArray<string>
  readonly n: number
}

export const Docs = collection<Doc>()("contractDocs", (d) => d.id, {
  owner: { kind: "plain", keys: (d) => d.owner },
  tag: { kind: "plain", keys: (d) => d.tags },
  parity: { kind: "plain", keys: (d) => (d.n % 2 === 0 ? "even" : "odd") }
})

/** A second collection, to show `clear` stays within one collection. */
const Notes = collection<Doc>()("contractNotes", (d) => d.id, { owner: { kind: "plain", keys: (d) => d.owner } })

export const doc = (id: string, owner = "o1", n = 0, tags: ReadonlyArray<string> = []): Doc => ({ id, owner, tags, n })

/**
 * The storage contract: every `Store` adapter must pass it. `makeLayer` gives a fresh, empty
 * store per test.
 */
export const storeContract = (name: string, makeLayer: () => Layer.Layer<Store>) =>
  describe(`Store contract: ${name}`, () => {
    const run = <A, E>(self: Effect.Effect<A, E, Store>) => Effect.provide(self, makeLayer())

    it.effect("put, get, replace, remove", () =>
      run(
        Effect.gen(function* () {
          const s = yield* Store
          expect(Option.isNone(yield* s.get(Docs, "p1", "a"))).toBe(true)
          yield* s.put(Docs, "p1", doc("a", "o1", 1))
          expect(yield* s.get(Docs, "p1", "a")).toEqual(Option.some(doc("a", "o1", 1)))
          yield* s.put(Docs, "p1", doc("a", "o2", 2))
          expect(yield* s.get(Docs, "p1", "a")).toEqual(Option.some(doc("a", "o2", 2)))
          expect(yield* s.remove(Docs, "p1", "a")).toBe(true)
          expect(yield* s.remove(Docs, "p1", "a")).toBe(false)
          expect(Option.isNone(yield* s.get(Docs, "p1", "a"))).toBe(true)
        })
      )
    )

    it.effect("secondary indexes follow replacement and removal, multi-key included", () =>
      run(
        Effect.gen(function* () {
          const s = yield* Store
          yield* s.put(Docs, "p1", doc("a", "o1", 0, ["x", "y"]))
          yield* s.put(Docs, "p1", doc("b", "o1", 0, ["y"]))
          expect((yield* s.findBy(Docs, "p1", "owner", "o1")).map((d) => d.id)).toEqual(["a", "b"])
          expect((yield* s.findBy(Docs, "p1", "tag", "y")).map((d) => d.id)).toEqual(["a", "b"])
          yield* s.put(Docs, "p1", doc("a", "o2", 0, ["z"]))
          expect((yield* s.findBy(Docs, "p1", "owner", "o1")).map((d) => d.id)).toEqual(["b"])
          expect((yield* s.findBy(Docs, "p1", "tag", "x")).map((d) => d.id)).toEqual([])
          expect((yield* s.findBy(Docs, "p1", "tag", "z")).map((d) => d.id)).toEqual(["a"])
          yield* s.remove(Docs, "p1", "b")
          expect(yield* s.findBy(Docs, "p1", "tag", "y")).toEqual([])
        })
      )
    )

    it.effect("lists in insertion order; a replaced record keeps its place", () =>
      run(
        Effect.gen(function* () {
          const s = yield* Store
          for (const id of ["c", "a", "b"]) yield* s.put(Docs, "p1", doc(id))
          yield* s.put(Docs, "p1", doc("c", "o9"))
          const page = yield* s.list(Docs, "p1", { limit: 10 })
          expect(page.items.map((d) => d.id)).toEqual(["c", "a", "b"])
          expect(page.totalCount).toBe(3)
          expect(page.hasMore).toBe(false)
        })
      )
    )

    it.effect("pages cover every matching record exactly once, in order or newest first (property)", () =>
      run(
        Effect.gen(function* () {
          const s = yield* Store
          const n = 23
          for (let i = 0; i < n; i++) yield* s.put(Docs, "p1", doc(`d${i}`, i % 3 === 0 ? "o3" : "o1", i))
          const samples = fc.sample(fc.record({ limit: fc.integer({ min: 1, max: 30 }), byIndex: fc.boolean(), even: fc.boolean(), descending: fc.boolean() }), 40)
          for (const { limit, byIndex, even, descending } of samples) {
            const matching = Array.from({ length: n }, (_, i) => i)
              .filter((i) => !byIndex || i % 3 === 0)
              .filter((i) => !even || i % 2 === 0)
              .map((i) => `d${i}`)
            const expected = descending ? matching.reverse() : matching
            const seen: Array<string> = []
            let after: number | undefined
            for (let guard = 0; guard < 100; guard++) {
              const page = yield* s.list(Docs, "p1", {
                limit,
                descending,
                ...(after === undefined ? {} : { afterSeq: after }),
                where: [
                  ...(byIndex ? [{ index: "owner", eq: "o3" }] : []),
                  ...(even ? [{ index: "parity", eq: "even" }] : [])
                ]
              })
              expect(page.totalCount).toBe(expected.length)
              expect(page.items.length).toBeLessThanOrEqual(limit)
              seen.push(...page.items.map((d) => d.id))
              if (!page.hasMore) break
              after = page.lastSeq
            }
            expect(seen).toEqual(expected)
          }
        })
      )
    )

    it.effect("a failed transaction leaves nothing behind", () =>
      run(
        Effect.gen(function* () {
          const s = yield* Store
          yield* s.put(Docs, "p1", doc("keep", "o1", 1, ["t"]))
          const exit = yield* Effect.exit(
            s.transaction(
              Effect.gen(function* () {
                yield* s.put(Docs, "p1", doc("new"))
                yield* s.put(Docs, "p1", doc("keep", "o2", 2, ["u"]))
                yield* s.remove(Docs, "p1", "keep")
                yield* s.put(Docs, "p2", doc("other"))
                return yield* Effect.fail("boom" as const)
              })
            )
          )
          expect(Exit.isFailure(exit)).toBe(true)
          expect(yield* s.get(Docs, "p1", "keep")).toEqual(Option.some(doc("keep", "o1", 1, ["t"])))
          expect(Option.isNone(yield* s.get(Docs, "p1", "new"))).toBe(true)
          expect(Option.isNone(yield* s.get(Docs, "p2", "other"))).toBe(true)
          expect((yield* s.findBy(Docs, "p1", "tag", "t")).map((d) => d.id)).toEqual(["keep"])
          expect(yield* s.findBy(Docs, "p1", "tag", "u")).toEqual([])
          expect((yield* s.list(Docs, "p1", { limit: 10 })).items.map((d) => d.id)).toEqual(["keep"])
        })
      )
    )

    it.effect("a defect inside a transaction rolls back too, and the store stays usable", () =>
      run(
        Effect.gen(function* () {
          const s = yield* Store
          const exit = yield* Effect.exit(
            s.transaction(Effect.zipRight(s.put(Docs, "p1", doc("x")), Effect.die(new Error("crash"))))
          )
          expect(Exit.isFailure(exit)).toBe(true)
          expect(Option.isNone(yield* s.get(Docs, "p1", "x"))).toBe(true)
          yield* s.put(Docs, "p1", doc("y"))
          expect(Option.isSome(yield* s.get(Docs, "p1", "y"))).toBe(true)
        })
      )
    )

    it.effect("a committed transaction keeps every write; nested transactions join", () =>
      run(
        Effect.gen(function* () {
          const s = yield* Store
          yield* s.transaction(
            Effect.gen(function* () {
              yield* s.put(Docs, "p1", doc("a"))
              yield* s.transaction(s.put(Docs, "p1", doc("b")))
            })
          )
          expect((yield* s.list(Docs, "p1", { limit: 10 })).items.map((d) => d.id)).toEqual(["a", "b"])
          // An inner failure fails the whole, outer writes included.
          const exit = yield* Effect.exit(
            s.transaction(Effect.zipRight(s.put(Docs, "p1", doc("c")), s.transaction(Effect.fail("inner"))))
          )
          expect(Exit.isFailure(exit)).toBe(true)
          expect(Option.isNone(yield* s.get(Docs, "p1", "c"))).toBe(true)
        })
      )
    )

    it.effect("scopes are isolated: same id, different platforms", () =>
      run(
        Effect.gen(function* () {
          const s = yield* Store
          yield* s.put(Docs, "p1", doc("a", "o1", 1))
          yield* s.put(Docs, "p2", doc("a", "o1", 2))
          expect((yield* s.get(Docs, "p1", "a")).pipe(Option.map((d) => d.n))).toEqual(Option.some(1))
          expect((yield* s.get(Docs, "p2", "a")).pipe(Option.map((d) => d.n))).toEqual(Option.some(2))
          expect(yield* s.findBy(Docs, "p3", "owner", "o1")).toEqual([])
          expect((yield* s.list(Docs, "p3", { limit: 10 })).totalCount).toBe(0)
          yield* s.remove(Docs, "p2", "a")
          expect(Option.isSome(yield* s.get(Docs, "p1", "a"))).toBe(true)
        })
      )
    )

    it.effect("clear empties one collection of one scope, indexes included, and nothing else", () =>
      run(
        Effect.gen(function* () {
          const s = yield* Store
          for (const id of ["a", "b", "c"]) yield* s.put(Docs, "p1", doc(id, "o1", 0, ["t"]))
          yield* s.put(Docs, "p2", doc("a", "o1", 0, ["t"]))
          yield* s.put(Notes, "p1", doc("n", "o1"))
          expect(yield* s.clear(Docs, "p1")).toBe(3)
          expect(yield* s.clear(Docs, "p1")).toBe(0)
          expect(Option.isNone(yield* s.get(Docs, "p1", "a"))).toBe(true)
          expect(yield* s.findBy(Docs, "p1", "owner", "o1")).toEqual([])
          expect(yield* s.findBy(Docs, "p1", "tag", "t")).toEqual([])
          expect((yield* s.list(Docs, "p1", { limit: 10 })).totalCount).toBe(0)
          expect((yield* s.findBy(Docs, "p2", "tag", "t")).map((d) => d.id)).toEqual(["a"])
          expect((yield* s.findBy(Notes, "p1", "owner", "o1")).map((d) => d.id)).toEqual(["n"])
          // A cleared collection takes new records, listed after nothing, indexed afresh.
          yield* s.put(Docs, "p1", doc("b", "o2"))
          yield* s.put(Docs, "p1", doc("a", "o2"))
          expect((yield* s.list(Docs, "p1", { limit: 10 })).items.map((d) => d.id)).toEqual(["b", "a"])
          expect((yield* s.findBy(Docs, "p1", "owner", "o2")).map((d) => d.id)).toEqual(["b", "a"])
        })
      )
    )

    it.effect("a clear rolls back with its transaction: records, order and indexes come back", () =>
      run(
        Effect.gen(function* () {
          const s = yield* Store
          for (const id of ["c", "a", "b"]) yield* s.put(Docs, "p1", doc(id, "o1", 1, ["t"]))
          // Read once so a read cache (SQLite) holds the record the clear removes.
          expect(Option.isSome(yield* s.get(Docs, "p1", "a"))).toBe(true)
          const exit = yield* Effect.exit(
            s.transaction(
              Effect.gen(function* () {
                yield* s.clear(Docs, "p1")
                yield* s.put(Docs, "p1", doc("a", "o9"))
                yield* s.put(Docs, "p1", doc("z", "o9"))
                expect((yield* s.list(Docs, "p1", { limit: 10 })).items.map((d) => d.id)).toEqual(["a", "z"])
                return yield* Effect.fail("boom" as const)
              })
            )
          )
          expect(Exit.isFailure(exit)).toBe(true)
          expect((yield* s.list(Docs, "p1", { limit: 10 })).items.map((d) => d.id)).toEqual(["c", "a", "b"])
          expect(yield* s.get(Docs, "p1", "a")).toEqual(Option.some(doc("a", "o1", 1, ["t"])))
          expect((yield* s.findBy(Docs, "p1", "tag", "t")).map((d) => d.id)).toEqual(["c", "a", "b"])
          expect(yield* s.findBy(Docs, "p1", "owner", "o9")).toEqual([])
          // And a committed clear stays cleared, the read cache included.
          yield* s.transaction(s.clear(Docs, "p1"))
          expect(Option.isNone(yield* s.get(Docs, "p1", "a"))).toBe(true)
        })
      )
    )

    it.effect("concurrent read-modify-write transactions on one record lose no update", () =>
      run(
        Effect.gen(function* () {
          const s = yield* Store
          yield* s.put(Docs, "p1", doc("counter", "o1", 0))
          const increment = s.transaction(
            Effect.gen(function* () {
              const cur = Option.getOrThrow(yield* s.get(Docs, "p1", "counter"))
              yield* Effect.yieldNow() // let other fibers try to interleave
              yield* s.put(Docs, "p1", { ...cur, n: cur.n + 1 })
            })
          )
          yield* Effect.all(Array.from({ length: 50 }, () => increment), { concurrency: "unbounded" })
          expect((yield* s.get(Docs, "p1", "counter")).pipe(Option.map((d) => d.n))).toEqual(Option.some(50))
        })
      )
    )

    it.effect("an interrupted transaction rolls back", () =>
      run(
        Effect.gen(function* () {
          const s = yield* Store
          const fiber = yield* Effect.fork(s.transaction(Effect.zipRight(s.put(Docs, "p1", doc("slow")), Effect.never)))
          yield* Effect.yieldNow()
          yield* Fiber.interrupt(fiber)
          expect(Option.isNone(yield* s.get(Docs, "p1", "slow"))).toBe(true)
          yield* s.put(Docs, "p1", doc("after"))
          expect(Option.isSome(yield* s.get(Docs, "p1", "after"))).toBe(true)
        })
      )
    )

    it.effect("a write from another fiber waits for an open transaction and is not part of it", () =>
      run(
        Effect.gen(function* () {
          const s = yield* Store
          const opened = yield* Deferred.make<void>()
          const release = yield* Deferred.make<void>()
          // The transaction writes, lets the other fiber try to write, then fails: rolled back.
          const tx = yield* Effect.fork(
            Effect.exit(
              s.transaction(
                Effect.gen(function* () {
                  yield* s.put(Docs, "p1", doc("inside"))
                  yield* Deferred.succeed(opened, undefined)
                  yield* Deferred.await(release)
                  return yield* Effect.fail("abandoned" as const)
                })
              )
            )
          )
          yield* Deferred.await(opened)
          const outside = yield* Effect.fork(s.put(Docs, "p1", doc("outside")))
          yield* Effect.yieldNow()
          // Still waiting for the transaction's permit: not written yet, so not undone with it.
          expect(outside.unsafePoll()).toBe(null)
          yield* Deferred.succeed(release, undefined)
          expect(Exit.isFailure(yield* Fiber.join(tx))).toBe(true)
          yield* Fiber.join(outside)
          expect(Option.isNone(yield* s.get(Docs, "p1", "inside"))).toBe(true)
          expect(Option.isSome(yield* s.get(Docs, "p1", "outside"))).toBe(true)
        })
      )
    )

    // A fiber forked inside a transaction (Effect.all with concurrency, a timeout, a race) is part
    // of it: its writes commit and roll back with the transaction, and waiting for it inside the
    // transaction cannot deadlock on the transaction's own permit (#457).
    it.effect("writes from fibers forked inside a transaction commit and roll back with it", () =>
      run(
        Effect.gen(function* () {
          const s = yield* Store
          yield* s.transaction(Effect.all([s.put(Docs, "p1", doc("a")), s.put(Docs, "p1", doc("b"))], { concurrency: 2 }))
          yield* s.transaction(Effect.timeout(s.put(Docs, "p1", doc("c")), "5 seconds"))
          const failed = yield* Effect.exit(
            s.transaction(Effect.zipRight(Effect.all([s.put(Docs, "p1", doc("d")), s.put(Docs, "p1", doc("e"))], { concurrency: 2 }), Effect.fail("no" as const)))
          )
          expect(Exit.isFailure(failed)).toBe(true)
          const held = yield* Effect.forEach(["a", "b", "c", "d", "e"], (id) => Effect.map(s.get(Docs, "p1", id), Option.isSome))
          expect(held).toEqual([true, true, true, false, false])
        })
      )
    )
    // A fiber forked inside a transaction that outlives it is no longer part of any transaction:
    // its later write waits for the permit like any other, and is not undone with a transaction
    // another fiber has open by then (DECISIONS #534).
    it.effect("a fiber forked inside a transaction that outlives it writes on its own once the transaction ends", () =>
      run(
        Effect.gen(function* () {
          const s = yield* Store
          const go = yield* Deferred.make<void>()
          const late = yield* s.transaction(
            Effect.zipLeft(Effect.forkDaemon(Effect.zipRight(Deferred.await(go), s.put(Docs, "p1", doc("late")))), s.put(Docs, "p1", doc("first")))
          )
          // Another transaction is open when the forked fiber writes; it then fails.
          const failed = yield* Effect.exit(
            s.transaction(
              Effect.gen(function* () {
                yield* s.put(Docs, "p1", doc("undone"))
                yield* Deferred.succeed(go, undefined)
                for (let i = 0; i < 5; i++) yield* Effect.yieldNow()
                return yield* Effect.fail("no" as const)
              })
            )
          )
          expect(Exit.isFailure(failed)).toBe(true)
          yield* Fiber.join(late)
          const held = yield* Effect.forEach(["first", "undone", "late"], (id) => Effect.map(s.get(Docs, "p1", id), Option.isSome))
          expect(held).toEqual([true, false, true])
        })
      )
    )
    indexCases(run)
    failureCases(run)
  })
