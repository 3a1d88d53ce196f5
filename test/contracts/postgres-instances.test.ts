import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer, Option } from "effect"
import { collection, Store, type StoreService } from "@tessera/core"
import { migrate, migrations, openPool, PostgresStore } from "@tessera/adapter-postgres"
import { freshSchema, pgUrl } from "../support/postgres.ts"

/**
 * What the contract suite cannot show with one store: several stores (as several server
 * instances would hold) on one schema, racing for the same rows. SERIALIZABLE transactions make
 * the races come out as if run one after another; the losers are retried inside the store.
 */
interface Counter {
  readonly id: string
  readonly n: number
}
const Counters = collection<Counter>()("pgCounters", (c) => c.id)

interface Handle {
  readonly id: string
  readonly owner: string
  readonly handle: string
}
const Handles = collection<Handle>()("pgHandles", (h) => h.id, {
  handle: { kind: "unique", keys: (h) => h.handle },
  owner: { kind: "plain", keys: (h) => h.owner, counted: true }
})

/** `n` stores on one schema, built together (their migrations race too) and ended together. */
const instances = (n: number) => {
  const schema = freshSchema("instances")
  return Effect.all(
    Array.from({ length: n }, () => Effect.flatMap(Layer.build(Layer.orDie(PostgresStore.layer({ url: pgUrl(), schema, poolSize: 3 }))), (ctx) => Effect.succeed(ctx.unsafeMap.get(Store.key) as StoreService))),
    { concurrency: "unbounded" }
  )
}

describe("PostgresStore: several instances on one database", () => {
  it.scoped("read-modify-write transactions racing from three instances lose no update", () =>
    Effect.gen(function* () {
      const stores = yield* instances(3)
      yield* stores[0]!.put(Counters, "p1", { id: "c", n: 0 })
      const bump = (s: StoreService) =>
        s.transaction(
          Effect.gen(function* () {
            const c = Option.getOrThrow(yield* s.get(Counters, "p1", "c"))
            yield* s.put(Counters, "p1", { id: "c", n: c.n + 1 })
          })
        )
      yield* Effect.all(
        Array.from({ length: 60 }, (_, i) => bump(stores[i % 3]!)),
        { concurrency: "unbounded", discard: true }
      )
      expect(Option.getOrThrow(yield* stores[1]!.get(Counters, "p1", "c")).n).toBe(60)
    })
  )

  it.scoped("the same unique key put from three instances at once: one holder, the others refused with UniqueViolation", () =>
    Effect.gen(function* () {
      const stores = yield* instances(3)
      const exits = yield* Effect.all(
        Array.from({ length: 30 }, (_, i) => Effect.exit(stores[i % 3]!.put(Handles, "p1", { id: `h${i}`, owner: "o", handle: "same" }))),
        { concurrency: "unbounded" }
      )
      const won = exits.filter(Exit.isSuccess)
      expect(won).toHaveLength(1)
      for (const e of exits.filter(Exit.isFailure)) expect(JSON.stringify(e.cause)).toContain("UniqueViolation")
      const page = yield* stores[2]!.list(Handles, "p1", { where: [{ index: "owner", eq: "o" }], limit: 10 })
      expect([page.items.length, page.totalCount]).toEqual([1, 1])
    })
  )

  it.scoped("a record written on one instance is read on another at once (no stale cache)", () =>
    Effect.gen(function* () {
      const [a, b] = yield* instances(2)
      yield* b!.get(Counters, "p1", "x")
      yield* a!.put(Counters, "p1", { id: "x", n: 7 })
      expect(yield* b!.get(Counters, "p1", "x")).toEqual(Option.some({ id: "x", n: 7 }))
    })
  )

  it.live("migrations started by five instances at once on an empty schema apply each version once", () =>
    Effect.promise(async () => {
      const schema = freshSchema("migrate")
      const pools = Array.from({ length: 5 }, () => openPool({ url: pgUrl(), schema, poolSize: 1 }))
      try {
        await Promise.all(pools.map((p) => migrate(p, schema)))
        const rows = (await pools[0]!.query(`SELECT version FROM "${schema}".schema_migrations ORDER BY version`)).rows
        expect(rows.map((r: { version: number }) => r.version)).toEqual(migrations.map((m) => m.version))
      } finally {
        await Promise.all(pools.map((p) => p.end()))
      }
    })
  )

  it.live("an unreachable server fails the layer with a StoreError, not a crash", () =>
    Effect.gen(function* () {
      const exit = yield* Effect.exit(
        Effect.scoped(Layer.build(PostgresStore.layer({ url: "postgresql://nobody@localhost/none?host=/nonexistent-tessera-socket-dir" })))
      )
      expect(Exit.isFailure(exit) && JSON.stringify(exit.cause)).toContain("StoreError")
    })
  )
})
