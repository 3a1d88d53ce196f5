// The engine's services come from one scoped context (DECISIONS #509): the store's and a given
// webhook transport's layers are built in it, the other ports' services are made by their
// effects. What an Effect program on it or an embedder sees must be what the ports' own layers
// give: every service, the virtual clock as Effect's clock, and the store released at disposal.
import { describe, expect, it } from "vitest"
import { Clock, Context, Effect, Layer, ManagedRuntime } from "effect"
import { engineLayer, Ids, Keys, makeEngine, Notifier, Store, TimeControl, WebhookTransport } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"

describe("engineLayer", () => {
  it("provides every port; a virtual clock is Effect's clock, starts at the stored time and moves with advance", async () => {
    const startMs = Date.UTC(2031, 0, 1)
    const memory = MemoryStore.make()
    const runtime = ManagedRuntime.make(engineLayer({ store: memory.layer, clock: "virtual", clockStartMs: startMs }))
    try {
      const seen = await runtime.runPromise(
        Effect.gen(function* () {
          for (const tag of [Store, Ids, Notifier, Keys, TimeControl, WebhookTransport]) yield* tag
          const before = yield* Clock.currentTimeMillis
          yield* (yield* TimeControl).advance(30)
          return { mode: (yield* TimeControl).mode, before, after: yield* Clock.currentTimeMillis }
        })
      )
      expect(seen).toEqual({ mode: "virtual", before: startMs, after: startMs + 30_000 })
    } finally {
      await runtime.dispose()
    }
    // A second engine on the same store resumes at the stored time, not at its own start.
    const again = makeEngine({ store: memory.layer, clock: "virtual", clockStartMs: 0 })
    expect(await again.run(Clock.currentTimeMillis)).toBe(startMs + 30_000)
    await again.dispose()
  })

  it("builds the store's layer and a given transport's in its scope and releases the store when disposed", async () => {
    const events: Array<string> = []
    const store = Layer.scoped(
      Store,
      Effect.acquireRelease(
        Effect.map(Layer.build(MemoryStore.layer), (ctx) => {
          events.push("acquired")
          return Context.get(ctx, Store)
        }),
        () => Effect.sync(() => events.push("released"))
      )
    )
    const posted: Array<string> = []
    const transport = Layer.succeed(WebhookTransport, { post: (url) => Effect.sync(() => (posted.push(url), { status: 200, body: "" })) })
    const engine = makeEngine({ store, webhookTransport: transport })
    expect(events).toEqual(["acquired"])
    await engine.run(Effect.flatMap(WebhookTransport, (t) => t.post("https://example.test/hook", {}, "{}")))
    expect(posted).toEqual(["https://example.test/hook"])
    expect(await engine.run(Effect.map(TimeControl, (t) => t.mode))).toBe("real")
    await engine.dispose()
    expect(events).toEqual(["acquired", "released"])
  })
})
