import { describe, expect, it } from "vitest"
import { Effect, Either, Option } from "effect"
import { collection, Conflict, makeEngine, Outbox, Store, Unauthorized } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { commitStep } from "../../packages/core/src/operations/common/step.ts"
import { type Transition } from "../../packages/core/src/machines/transition.ts"

interface Counter {
  readonly id: string
  readonly n: number
}
const Counters = collection<Counter>()("commit-step-counters", (c) => c.id)

/** A toy machine: counts, emits on every count, and answers 401 after saving from 3 on. */
const count = (c: Counter): Either.Either<Transition<Counter>, Conflict> =>
  c.n >= 5
    ? Either.left(new Conflict({ message: "full", details: {} }))
    : Either.right({
        state: { ...c, n: c.n + 1 },
        emit: [{ type: "COUNTED", resourceId: c.id, data: { n: c.n + 1 } }],
        ...(c.n + 1 >= 3 ? { answer: new Unauthorized({ message: "counted, and refused", details: {} }) } : {})
      })

describe("commitStep", () => {
  it("saves and publishes a transition, then answers its deferred error; a refused step saves nothing", async () => {
    // Awaited: makeEngine may become async; awaiting a plain value is harmless.
    const engine = await makeEngine({ store: MemoryStore.layer })
    try {
      const platform = await engine.platform({ clientId: "p", clientSecret: "s" })
      const step = commitStep(
        platform.id,
        Effect.gen(function* () {
          const store = yield* Store
          const current = Option.getOrElse(yield* store.get(Counters, platform.id, "c"), () => ({ id: "c", n: 0 }))
          const transition = yield* count(current)
          return { transition, save: (next: Counter) => store.put(Counters, platform.id, next), view: (next: Counter) => next.n }
        })
      )
      const answers: Array<number | string> = []
      for (let i = 0; i < 7; i++) {
        const exit = await engine.runtime.runPromiseExit(step)
        answers.push(exit._tag === "Success" ? exit.value : (exit.cause as { error: { _tag: string } }).error._tag)
      }
      expect(answers).toEqual([1, 2, "UNAUTHORIZED", "UNAUTHORIZED", "UNAUTHORIZED", "CONFLICT", "CONFLICT"])
      const stored = await engine.run(Effect.flatMap(Store, (s) => s.get(Counters, platform.id, "c")))
      expect(Option.getOrThrow(stored).n).toBe(5)
      const events = await engine.run(Effect.flatMap(Store, (s) => s.findBy(Outbox, platform.id, "resourceId", "c")))
      expect(events.map((e) => (e.data as { n: number }).n)).toEqual([1, 2, 3, 4, 5])
    } finally {
      await engine.dispose()
    }
  })
})
