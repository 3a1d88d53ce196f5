// A customer creation on the memory store runs as plain calls in a direct transaction
// (DECISIONS #535); on any other store, and when the memory store's permit is held, through the
// store's Effects. Both paths must answer the same thing and leave the same records: these tests
// run the same requests through each and compare, and check the direct transaction's own rules.
import { describe, expect, it } from "vitest"
import { Deferred, Effect, Exit, Fiber, Layer } from "effect"
import * as fc from "fast-check"
import {
  AuthMethods,
  Customers,
  directBusy,
  directWrites,
  Ids,
  InternalAccounts,
  makeEngine,
  Store,
  type StoreService,
  TimeControl,
  UniqueViolation
} from "@tessera/core"
import { createCustomer } from "@tessera/core/operations"
import { MemoryStore } from "@tessera/adapter-memory"

const T0 = Date.UTC(2026, 2, 1, 12, 0, 0)

/** The memory store as a copy of its service: it inherits `direct`, which must then go unused. */
const copied = Layer.sync(Store, (): StoreService => ({ ...MemoryStore.make().service }))

/** Mostly valid bodies of either type, with the keys that collide (ids, addresses, emails) drawn from a few. */
const common = {
  platformCustomerId: fc.constantFrom("a", "b", "c"),
  umaAddress: fc.constantFrom("$ann@sandbox.tessera.local", "$bo@sandbox.tessera.local"),
  email: fc.constantFrom("a@x.test", "b@x.test"),
  endUserTermsConsent: fc.constantFrom("V1", "V1", "V9").map((termsVersion) => ({ termsVersion, acceptedAt: "2026-03-01T12:00:00Z", ipAddress: "1.2.3.4", acceptanceMethod: "CHECKBOX" }))
}
const optional = { requiredKeys: ["customerType" as const] }
const body = fc.oneof(
  { weight: 5, arbitrary: fc.record({ customerType: fc.constant("INDIVIDUAL"), fullName: fc.constantFrom("Ann Lee", "Bo Chan"), ...common }, optional) },
  {
    weight: 3,
    arbitrary: fc.record({ customerType: fc.constant("BUSINESS"), businessInfo: fc.constant({ legalName: "Acme Corp", country: "US", taxId: "47-1234567", incorporatedOn: "2018-03-14" }), ...common }, optional)
  },
  { weight: 1, arbitrary: fc.record({ customerType: fc.constantFrom("PERSON", "INDIVIDUAL"), email: fc.constant("nope"), umaAddress: fc.constant("not an address") }, optional) }
)
/** A batch of creations on their own, or in one outer transaction that commits or fails after them. */
const batch = fc.record({ bodies: fc.array(body, { minLength: 1, maxLength: 4 }), outer: fc.constantFrom("none", "commit", "fail") })

const outcome = (exit: Exit.Exit<unknown, unknown>) =>
  Exit.isSuccess(exit) ? { ok: exit.value } : { failed: JSON.parse(JSON.stringify(exit.cause)) }

/** Every request's outcome, then every record the creations made, in listing order. */
const play = async (layer: Layer.Layer<Store>, batches: ReadonlyArray<fc.RecordValue<{ bodies: Array<unknown>; outer: string }>>) => {
  const engine = makeEngine({ store: layer, clock: "virtual", clockStartMs: T0, seed: 11 })
  const platform = await engine.platform({ clientId: "c", clientSecret: "s" })
  const direct = engine.runSync(Effect.map(Store, (s) => directWrites(s) !== undefined))
  const answers: Array<unknown> = []
  for (const b of batches) {
    // Each batch at a later second, so a clock read moved or added changes a timestamp.
    await engine.run(Effect.flatMap(TimeControl, (t) => t.advance(1)))
    const creations = Effect.forEach(b.bodies, (input) => Effect.map(Effect.exit(createCustomer(platform, input)), (e) => answers.push(outcome(e))))
    const program =
      b.outer === "none"
        ? creations
        : Effect.flatMap(Store, (s) => s.transaction(b.outer === "commit" ? creations : Effect.zipRight(creations, Effect.fail("outer failed"))))
    answers.push(outcome(engine.runSync(Effect.exit(program))))
  }
  const all = <A>(c: typeof Customers | typeof InternalAccounts | typeof AuthMethods) =>
    engine.runSync(Effect.flatMap(Store, (s) => s.list(c as never, platform.id, { limit: 1000 }))).items as ReadonlyArray<A>
  const records = { customers: all(Customers), accounts: all(InternalAccounts), credentials: all(AuthMethods) }
  // The next uuid too: one drawn too many or too few by the last creation changes it.
  const next = engine.runSync(Effect.flatMap(Ids, (ids) => ids.uuid))
  await engine.dispose()
  return { direct, answers, records, next }
}

describe("customer creation on the memory store: direct and through Effects (DECISIONS #535)", () => {
  it("the memory store offers direct writes; a copy of its service does not, nor the asynchronous one", () => {
    const service = MemoryStore.make().service
    expect(directWrites(service)).toBe(service.direct)
    expect(directWrites({ ...service })).toBeUndefined()
  })

  it("property: the same requests answer the same and leave the same records on both paths", async () => {
    // What the runs covered, so the property cannot pass on answers that are all alike.
    const seen = { created: 0, conflicts: 0, invalid: 0, undone: 0 }
    await fc.assert(
      fc.asyncProperty(fc.array(batch, { minLength: 1, maxLength: 6 }), async (batches) => {
        const direct = await play(MemoryStore.layer, batches)
        const effects = await play(copied, batches)
        expect([direct.direct, effects.direct]).toEqual([true, false])
        expect({ ...direct, direct: undefined }).toEqual({ ...effects, direct: undefined })
        for (const a of direct.answers as ReadonlyArray<{ ok?: { id?: string }; failed?: { error?: { status?: number } | string } }>) {
          if (a.ok?.id !== undefined) seen.created++
          const error = a.failed?.error
          if (typeof error === "object" && error.status === 409) seen.conflicts++
          if (typeof error === "object" && error.status === 400) seen.invalid++
          if (error === "outer failed") seen.undone++
        }
      }),
      { numRuns: 150 }
    )
    expect(Object.values(seen).every((n) => n >= 20)).toBe(true)
  })

  it("a conflict writes nothing: no wallet, no credential", async () => {
    const engine = makeEngine({ store: MemoryStore.layer, clock: "virtual", clockStartMs: T0, seed: 3 })
    const platform = await engine.platform({ clientId: "c", clientSecret: "s" })
    const create = (input: object) => engine.runSync(Effect.exit(createCustomer(platform, input)))
    const first = create({ customerType: "INDIVIDUAL", fullName: "Ann Lee", platformCustomerId: "a", email: "a@x.test" })
    expect(Exit.isSuccess(first)).toBe(true)
    const count = (c: typeof Customers | typeof InternalAccounts | typeof AuthMethods) =>
      engine.runSync(Effect.flatMap(Store, (s) => s.list(c as never, platform.id, { limit: 10 }))).totalCount
    const counts = () => [count(Customers), count(InternalAccounts), count(AuthMethods)]
    const before = counts()
    const again = create({ customerType: "INDIVIDUAL", fullName: "Ann Lee", platformCustomerId: "a", email: "b@x.test" })
    expect(outcome(again)).toMatchObject({ failed: { _tag: "Fail", error: { _tag: "CONFLICT", status: 409, details: { platformCustomerId: "a" } } } })
    expect(counts()).toEqual(before)
    expect(before[0]).toBe(1)
    await engine.dispose()
  })
})

describe("the memory store's direct transaction", () => {
  const Items = Customers
  const record = (id: string, platformCustomerId: string) => ({ id, platformCustomerId, umaAddress: `$${id}@x.test`, isDeleted: false }) as never
  const ids = (s: StoreService) => Effect.runSync(s.list(Items, "p", { limit: 10 })).items.map((c) => c.id)
  /** Called with a fiber outside any transaction (a finished one), on the caller's stack. */
  const fiberOf = <A>(f: (fiber: Fiber.RuntimeFiber<unknown, unknown>) => A) =>
    f(Effect.runSync(Effect.withFiberRuntime((fiber) => Effect.succeed(fiber as Fiber.RuntimeFiber<unknown, unknown>))))

  it("commits every write, or rolls every one back when its function throws, and releases the permit either way", () => {
    const s = MemoryStore.make().service
    const d = directWrites(s)!
    expect(fiberOf((f) => d.transaction(f, (put) => (put(Items, "p", record("c1", "a")), put(Items, "p", record("c2", "b")), "done")))).toBe("done")
    expect(() =>
      fiberOf((f) =>
        d.transaction(f, (put) => {
          put(Items, "p", record("c3", "c"))
          put(Items, "p", record("c4", "a")) // a's platformCustomerId is c1's: UniqueViolation
        })
      )
    ).toThrow(UniqueViolation)
    expect(ids(s)).toEqual(["c1", "c2"])
    // The permit is free again: an Effect transaction runs at once.
    Effect.runSync(s.transaction(s.put(Items, "p", record("c5", "d"))))
    expect(ids(s)).toEqual(["c1", "c2", "c5"])
  })

  it("joins the transaction its fiber is in: the outer transaction's failure undoes the direct writes", () => {
    const s = MemoryStore.make().service
    const d = directWrites(s)!
    const inner = Effect.withFiberRuntime((fiber) => Effect.succeed(d.transaction(fiber, (put) => put(Items, "p", record("c1", "a")))))
    const exit = Effect.runSyncExit(s.transaction(Effect.zipRight(inner, Effect.fail("later"))))
    expect(Exit.isFailure(exit)).toBe(true)
    expect(ids(s)).toEqual([])
    Effect.runSync(s.transaction(inner))
    expect(ids(s)).toEqual(["c1"])
  })

  it("a direct transaction inside one joins it; a put kept past its transaction refuses to write", () => {
    const s = MemoryStore.make().service
    const d = directWrites(s)!
    let kept: ((id: string) => void) | undefined
    expect(() =>
      fiberOf((f) =>
        d.transaction(f, (put) => {
          put(Items, "p", record("c1", "a"))
          expect(d.transaction(f, (inner) => (inner(Items, "p", record("c2", "b")), "joined"))).toBe("joined")
          kept = (id) => put(Items, "p", record(id, id))
          throw new Error("undo both")
        })
      )
    ).toThrow("undo both")
    expect(ids(s)).toEqual([])
    expect(() => kept!("c3")).toThrow(/after its transaction ended/)
    expect(ids(s)).toEqual([])
  })

  it("answers busy while another fiber's transaction holds the permit; a creation then waits its turn", async () => {
    const engine = makeEngine({ store: MemoryStore.layer, clock: "virtual", clockStartMs: T0, seed: 5 })
    const platform = await engine.platform({ clientId: "c", clientSecret: "s" })
    const order: Array<string> = []
    const program = Effect.gen(function* () {
      const store = yield* Store
      const go = yield* Deferred.make<void>()
      const holder = yield* Effect.fork(
        store.transaction(
          Effect.zipRight(Deferred.await(go), Effect.sync(() => order.push("holder done")))
        )
      )
      yield* Effect.yieldNow()
      const busy = yield* Effect.withFiberRuntime((fiber) => Effect.succeed(store.direct!.transaction(fiber, () => "ran")))
      const creating = yield* Effect.fork(Effect.tap(createCustomer(platform, { customerType: "INDIVIDUAL", fullName: "Ann Lee" }), () => Effect.sync(() => order.push("created"))))
      yield* Effect.yieldNow()
      order.push("released")
      yield* Deferred.succeed(go, undefined)
      yield* Fiber.join(holder)
      const view = yield* Fiber.join(creating)
      return { busy, view }
    })
    const { busy, view } = await engine.run(program)
    expect(busy).toBe(directBusy)
    expect(order).toEqual(["released", "holder done", "created"])
    expect(view.fullName).toBe("Ann Lee")
    await engine.dispose()
  })
})
