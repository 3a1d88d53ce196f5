import { expect, it } from "@effect/vitest"
import { Effect, Exit, Option } from "effect"
import * as fc from "fast-check"
import { collection, type Condition, sortableInstant, Store } from "@tessera/core"

interface Job {
  readonly id: string
  readonly owner: string
  readonly email?: string
  /** When it is due (ms); none: not scheduled. */
  readonly at?: number
}

export const Jobs = collection<Job>()("contractJobs", (j) => j.id, {
  email: { kind: "unique", keys: (j) => j.email },
  owner: { kind: "plain", counted: true, keys: (j) => j.owner },
  // Not counted: its counts are read from the index.
  owner2: { kind: "plain", keys: (j) => j.owner },
  at: { kind: "ordered", keys: (j) => (j.at === undefined ? undefined : sortableInstant(j.at)) }
})

interface Handle {
  readonly id: string
  readonly handle: string
  readonly live: boolean
}

/** A unique index declared as a filter of a plain one (`within`): the live records' handles. */
export const Handles = collection<Handle>()("contractHandles", (h) => h.id, {
  liveHandle: { kind: "unique", within: "handle", keys: (h) => (h.live ? h.handle : undefined) },
  handle: { kind: "plain", keys: (h) => h.handle }
})

const T = (ms: number) => sortableInstant(Date.UTC(2026, 0, 1) + ms)!
const job = (id: string, owner: string, at?: number, email?: string): Job => ({
  id,
  owner,
  ...(at === undefined ? {} : { at: Date.UTC(2026, 0, 1) + at }),
  ...(email === undefined ? {} : { email })
})

type Run = <A, E>(self: Effect.Effect<A, E, Store>) => Effect.Effect<A, E>

/** Unique, ordered and declarative-list cases of the storage contract. */
export const indexCases = (run: Run) => {
  it.effect("a unique index refuses a second holder, writes nothing, and frees the key with its holder", () =>
    run(
      Effect.gen(function* () {
        const s = yield* Store
        yield* s.put(Jobs, "p1", job("a", "o1", undefined, "x@example.com"))
        const clash = yield* Effect.flip(s.put(Jobs, "p1", job("b", "o1", undefined, "x@example.com")))
        expect(clash._tag).toBe("UniqueViolation")
        expect(clash).toMatchObject({ collection: "contractJobs", index: "email", key: "x@example.com", existingId: "a" })
        expect(Option.isNone(yield* s.get(Jobs, "p1", "b"))).toBe(true)
        expect((yield* s.list(Jobs, "p1", { limit: 10, where: [{ index: "owner", eq: "o1" }] })).totalCount).toBe(1)
        // The holder may be written again with its own key; other scopes are other worlds.
        yield* s.put(Jobs, "p1", job("a", "o2", undefined, "x@example.com"))
        yield* s.put(Jobs, "p2", job("b", "o1", undefined, "x@example.com"))
        // Once the holder lets the key go, it is free.
        yield* s.put(Jobs, "p1", job("a", "o2"))
        yield* s.put(Jobs, "p1", job("b", "o1", undefined, "x@example.com"))
        expect((yield* s.findBy(Jobs, "p1", "email", "x@example.com")).map((j) => j.id)).toEqual(["b"])
        // Inside a transaction the violation fails the whole, earlier writes included.
        const exit = yield* Effect.exit(
          s.transaction(Effect.zipRight(s.put(Jobs, "p1", job("c", "o1")), s.put(Jobs, "p1", job("d", "o1", undefined, "x@example.com"))))
        )
        expect(Exit.isFailure(exit)).toBe(true)
        expect(Option.isNone(yield* s.get(Jobs, "p1", "c"))).toBe(true)
      })
    )
  )

  it.effect("a unique index declared within a plain one answers only its own keys, and is enforced", () =>
    run(
      Effect.gen(function* () {
        const s = yield* Store
        const h = (id: string, handle: string, live: boolean): Handle => ({ id, handle, live })
        const ids = (xs: ReadonlyArray<Handle>) => xs.map((x) => x.id)
        const liveAt = (key: string) => s.list(Handles, "p1", { limit: 10, where: [{ index: "liveHandle", eq: key }] })
        yield* s.put(Handles, "p1", h("a", "x", true))
        const clash = yield* Effect.flip(s.put(Handles, "p1", h("b", "x", true)))
        expect(clash).toMatchObject({ _tag: "UniqueViolation", index: "liveHandle", key: "x", existingId: "a" })
        // A record the unique index does not hold shares the plain key freely.
        yield* s.put(Handles, "p1", h("b", "x", false))
        expect(ids(yield* s.findBy(Handles, "p1", "liveHandle", "x"))).toEqual(["a"])
        expect(ids(yield* s.findBy(Handles, "p1", "handle", "x"))).toEqual(["a", "b"])
        const page = yield* liveAt("x")
        expect([ids(page.items), page.totalCount]).toEqual([["a"], 1])
        // The holder lets the key go; another takes it; the rest of the plain key is untouched.
        yield* s.put(Handles, "p1", h("a", "x", false))
        expect(ids(yield* s.findBy(Handles, "p1", "liveHandle", "x"))).toEqual([])
        yield* s.put(Handles, "p1", h("b", "x", true))
        expect(ids((yield* liveAt("x")).items)).toEqual(["b"])
        expect(ids(yield* s.findBy(Handles, "p1", "handle", "x"))).toEqual(["a", "b"])
        // A rolled-back write leaves the key as it was; a removed holder frees it.
        const exit = yield* Effect.exit(s.transaction(Effect.zipRight(s.put(Handles, "p1", h("c", "y", true)), Effect.fail("no"))))
        expect(Exit.isFailure(exit)).toBe(true)
        expect(ids(yield* s.findBy(Handles, "p1", "liveHandle", "y"))).toEqual([])
        yield* s.remove(Handles, "p1", "b")
        yield* s.put(Handles, "p1", h("c", "x", true))
        expect(ids(yield* s.findBy(Handles, "p1", "liveHandle", "x"))).toEqual(["c"])
        expect((yield* liveAt("x")).totalCount).toBe(1)
      })
    )
  )

  it.effect("due answers the records of an ordered index up to a key, in listing order, from the index alone", () =>
    run(
      Effect.gen(function* () {
        const s = yield* Store
        yield* s.put(Jobs, "p1", job("late", "o1", 5_000))
        yield* s.put(Jobs, "p1", job("now", "o1", 1_000))
        yield* s.put(Jobs, "p1", job("idle", "o1"))
        yield* s.put(Jobs, "p1", job("early", "o1", 0))
        const ids = (upTo: string, limit = 10) => Effect.map(s.due(Jobs, "p1", "at", upTo, limit), (js) => js.map((j) => j.id))
        expect(yield* ids(T(999))).toEqual(["early"])
        expect(yield* ids(T(1_000))).toEqual(["now", "early"])
        expect(yield* ids(T(10_000))).toEqual(["late", "now", "early"])
        expect(yield* ids(T(10_000), 2)).toEqual(["late", "now"])
        // Rescheduling moves a record; unscheduling takes it out; other scopes see nothing.
        yield* s.put(Jobs, "p1", job("late", "o1", 500))
        yield* s.put(Jobs, "p1", job("now", "o1"))
        expect(yield* ids(T(1_000))).toEqual(["late", "early"])
        expect(yield* s.due(Jobs, "p2", "at", T(10_000), 10)).toEqual([])
        yield* s.remove(Jobs, "p1", "early")
        expect(yield* ids(T(1_000))).toEqual(["late"])
      })
    )
  )

  it.effect("lists by declarative conditions: equality and ranges, combined, with totalCount and pages", () =>
    run(
      Effect.gen(function* () {
        const s = yield* Store
        for (let i = 0; i < 12; i++) yield* s.put(Jobs, "p1", job(`j${i}`, i % 3 === 0 ? "o3" : "o1", i * 100))
        const page = (where: ReadonlyArray<Condition>, limit = 100, afterSeq?: number) =>
          s.list(Jobs, "p1", { where, limit, ...(afterSeq === undefined ? {} : { afterSeq }) })
        const ids = (p: { readonly items: ReadonlyArray<Job> }) => p.items.map((j) => j.id)
        expect((yield* page([])).totalCount).toBe(12)
        const o3 = yield* page([{ index: "owner", eq: "o3" }])
        expect([ids(o3), o3.totalCount]).toEqual([["j0", "j3", "j6", "j9"], 4])
        const range = yield* page([{ index: "at", gt: T(200), lt: T(700) }])
        expect([ids(range), range.totalCount]).toEqual([["j3", "j4", "j5", "j6"], 4])
        const inclusive = yield* page([{ index: "at", gte: T(200), lte: T(700) }])
        expect(ids(inclusive)).toEqual(["j2", "j3", "j4", "j5", "j6", "j7"])
        const both = yield* page([{ index: "owner", eq: "o1" }, { index: "at", gte: T(400) }], 2)
        expect([ids(both), both.totalCount, both.hasMore]).toEqual([["j4", "j5"], 6, true])
        const next = yield* page([{ index: "owner", eq: "o1" }, { index: "at", gte: T(400) }], 10, both.lastSeq)
        expect([ids(next), next.totalCount, next.hasMore]).toEqual([["j7", "j8", "j10", "j11"], 6, false])
        expect((yield* page([{ index: "owner", eq: "nobody" }])).totalCount).toBe(0)
        expect((yield* page([{ index: "owner", eq: "o3" }, { index: "owner", eq: "o1" }])).totalCount).toBe(0)
      })
    )
  )

  it.effect("counts follow every write: replace, remove, clear and a rolled-back transaction", () =>
    run(
      Effect.gen(function* () {
        const s = yield* Store
        const count = (where: ReadonlyArray<Condition> = []) => Effect.map(s.list(Jobs, "p1", { where, limit: 1 }), (p) => p.totalCount)
        // Counted and uncounted indexes over the same keys must agree.
        const o1Of = (index: string) => [{ index, eq: "o1" }]
        const countO1 = Effect.zipWith(count(o1Of("owner")), count(o1Of("owner2")), (a, b) => [a, b])
        for (const id of ["a", "b", "c"]) yield* s.put(Jobs, "p1", job(id, "o1"))
        yield* s.put(Jobs, "p1", job("b", "o2"))
        expect([yield* count(), ...(yield* countO1)]).toEqual([3, 2, 2])
        yield* s.remove(Jobs, "p1", "a")
        expect([yield* count(), ...(yield* countO1)]).toEqual([2, 1, 1])
        yield* Effect.exit(
          s.transaction(
            Effect.gen(function* () {
              yield* s.put(Jobs, "p1", job("d", "o1"))
              yield* s.remove(Jobs, "p1", "c")
              yield* s.put(Jobs, "p1", job("b", "o1"))
              expect([yield* count(), ...(yield* countO1)]).toEqual([2, 2, 2])
              return yield* Effect.fail("boom" as const)
            })
          )
        )
        expect([yield* count(), ...(yield* countO1)]).toEqual([2, 1, 1])
        yield* s.clear(Jobs, "p1")
        expect([yield* count(), ...(yield* countO1)]).toEqual([0, 0, 0])
        yield* s.put(Jobs, "p1", job("e", "o1"))
        expect([yield* count(), ...(yield* countO1)]).toEqual([1, 1, 1])
      })
    )
  )

  it.effect("any conjunction of conditions pages exactly the records a plain filter keeps (property)", () =>
    run(
      Effect.gen(function* () {
        const s = yield* Store
        const jobs = Array.from({ length: 40 }, (_, i) => job(`k${i}`, `o${(i * 7) % 4}`, i % 5 === 0 ? undefined : ((i * 37) % 23) * 100))
        for (const j of jobs) yield* s.put(Jobs, "p1", j)
        const bound = fc.option(fc.integer({ min: -1, max: 24 }).map((n) => T(n * 100)), { nil: undefined })
        const samples = fc.sample(
          fc.record({ owner: fc.option(fc.integer({ min: 0, max: 4 }).map((n) => `o${n}`), { nil: undefined }), gt: bound, lte: bound, limit: fc.integer({ min: 1, max: 15 }) }),
          30
        )
        for (const { owner, gt, lte, limit } of samples) {
          const where: Array<Condition> = [
            ...(owner === undefined ? [] : [{ index: "owner", eq: owner }]),
            ...(gt === undefined && lte === undefined ? [] : [{ index: "at", ...(gt === undefined ? {} : { gt }), ...(lte === undefined ? {} : { lte }) }])
          ]
          const key = (j: Job) => (j.at === undefined ? undefined : sortableInstant(j.at))
          const expected = jobs
            .filter((j) => owner === undefined || j.owner === owner)
            .filter((j) => (gt === undefined && lte === undefined) || (key(j) !== undefined && (gt === undefined || key(j)! > gt) && (lte === undefined || key(j)! <= lte)))
            .map((j) => j.id)
          const seen: Array<string> = []
          let after: number | undefined
          for (let guard = 0; guard < 50; guard++) {
            const page = yield* s.list(Jobs, "p1", { where, limit, ...(after === undefined ? {} : { afterSeq: after }) })
            expect(page.totalCount).toBe(expected.length)
            seen.push(...page.items.map((j) => j.id))
            if (!page.hasMore) break
            after = page.lastSeq
          }
          expect(seen).toEqual(expected)
        }
      })
    )
  )
}
