import { expect, it } from "@effect/vitest"
import { Effect, Exit, Option } from "effect"
import { Store, STORE_TRANSACTION_RETRIES, StoreError, type StoreService } from "@tessera/core"
import { doc, Docs } from "./store-contract.ts"

type Run = <A, E>(self: Effect.Effect<A, E, Store>) => Effect.Effect<A, E>

/**
 * The store under test with a fault on chosen `put` calls (counted from 1): what a lost
 * connection or a serialization failure looks like to the engine. The store's own
 * `transaction` is kept, so its rollback and retry are what is tested.
 */
const withFaults = (inner: StoreService, failing: (call: number) => StoreError | undefined) => {
  let calls = 0
  const service: StoreService = {
    ...inner,
    put: (c, scope, value) =>
      Effect.suspend(() => {
        const fault = failing(++calls)
        return fault === undefined ? inner.put(c, scope, value) : Effect.fail(fault)
      })
  }
  return service
}

const lost = (retryable: boolean) => new StoreError({ message: "connection lost", retryable })

/** Typed store failures, retries and asynchronous transaction bodies. */
export const failureCases = (run: Run) => {
  const twoPuts = (s: StoreService, runs: { n: number }) =>
    s.transaction(
      Effect.gen(function* () {
        runs.n++
        yield* s.put(Docs, "p1", doc("a"))
        yield* s.put(Docs, "p1", doc("b"))
      })
    )

  it.effect("a retryable store error rolls the transaction back and runs it again", () =>
    run(
      Effect.gen(function* () {
        const s = withFaults(yield* Store, (call) => (call === 2 ? lost(true) : undefined))
        const runs = { n: 0 }
        yield* twoPuts(s, runs)
        expect(runs.n).toBe(2)
        const page = yield* s.list(Docs, "p1", { limit: 10 })
        expect([page.items.map((d) => d.id), page.totalCount]).toEqual([["a", "b"], 2])
      })
    )
  )

  it.effect("a store error that is not retryable fails the transaction, typed, with nothing written", () =>
    run(
      Effect.gen(function* () {
        const s = withFaults(yield* Store, (call) => (call === 2 ? lost(false) : undefined))
        const runs = { n: 0 }
        const error = yield* Effect.flip(twoPuts(s, runs))
        expect(error).toBeInstanceOf(StoreError)
        expect([error._tag, error.retryable, runs.n]).toEqual(["StoreError", false, 1])
        expect(Option.isNone(yield* s.get(Docs, "p1", "a"))).toBe(true)
      })
    )
  )

  it.effect("retries are bounded: a store that keeps failing is a StoreError after the last", () =>
    run(
      Effect.gen(function* () {
        const s = withFaults(yield* Store, (call) => (call % 2 === 0 ? lost(true) : undefined))
        const runs = { n: 0 }
        const error = yield* Effect.flip(twoPuts(s, runs))
        expect([error._tag, runs.n]).toEqual(["StoreError", 1 + STORE_TRANSACTION_RETRIES])
        expect((yield* s.list(Docs, "p1", { limit: 10 })).totalCount).toBe(0)
      })
    )
  )

  it.effect("a transaction whose body waits on I/O commits or rolls back whole, serialised with others", () =>
    run(
      Effect.gen(function* () {
        const s = yield* Store
        const io = Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))
        yield* s.put(Docs, "p1", doc("counter", "o1", 0))
        const increment = s.transaction(
          Effect.gen(function* () {
            const cur = Option.getOrThrow(yield* s.get(Docs, "p1", "counter"))
            yield* io
            yield* s.put(Docs, "p1", { ...cur, n: cur.n + 1 })
          })
        )
        yield* Effect.all(Array.from({ length: 10 }, () => increment), { concurrency: "unbounded" })
        expect((yield* s.get(Docs, "p1", "counter")).pipe(Option.map((d) => d.n))).toEqual(Option.some(10))
        const exit = yield* Effect.exit(
          s.transaction(Effect.zipRight(Effect.zipRight(s.put(Docs, "p1", doc("x")), io), Effect.fail("after I/O" as const)))
        )
        expect(Exit.isFailure(exit)).toBe(true)
        expect(Option.isNone(yield* s.get(Docs, "p1", "x"))).toBe(true)
      })
    )
  )
}
