import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer, Option } from "effect"
import { collection, Store, StoreError, type StoreService } from "@tessera/core"
import { PostgresStore } from "@tessera/adapter-postgres"
import { startCluster, stopCluster } from "../../scripts/pg-cluster.mjs"

const Notes = collection<{ readonly id: string }>()("pgOutageNotes", (n) => n.id)

/**
 * A server that goes away under a running store: its own throwaway cluster, stopped mid-test.
 * Every call then fails with a typed StoreError that is not retried (a 503 over HTTP), never a
 * defect and never a hang.
 */
describe("PostgresStore when the server goes away", () => {
  it.live("reads and writes fail with a StoreError that is not retryable", () =>
    Effect.gen(function* () {
      const cluster = startCluster()
      try {
        const store = yield* Effect.scoped(
          Effect.gen(function* () {
            const ctx = yield* Layer.build(PostgresStore.layer({ url: cluster.url, schema: "outage", poolSize: 2 }))
            const s = ctx.unsafeMap.get(Store.key) as StoreService
            yield* s.put(Notes, "p1", { id: "a" })
            expect(yield* s.get(Notes, "p1", "a")).toEqual(Option.some({ id: "a" }))
            stopCluster(cluster.dir)
            const read = yield* Effect.exit(s.get(Notes, "p1", "a"))
            const write = yield* Effect.exit(s.put(Notes, "p1", { id: "b" }))
            return { read, write }
          })
        )
        for (const exit of [store.read, store.write] as Array<Exit.Exit<unknown, StoreError>>) {
          expect(Exit.isFailure(exit)).toBe(true)
          if (Exit.isFailure(exit) && exit.cause._tag === "Fail") {
            expect(exit.cause.error).toBeInstanceOf(StoreError)
            expect((exit.cause.error as StoreError).retryable).toBe(false)
          } else expect.fail(`expected a typed failure, got ${JSON.stringify(exit)}`)
        }
      } finally {
        stopCluster(cluster.dir)
      }
    })
  )
})
