import { describe, expect, it } from "vitest"
import { Effect, Layer } from "effect"
import { deliverAll, Engine, makeEngine, TimeControl, WEBHOOK_DUE_BATCH, WebhookTransport } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { everyStore, outboxPublisher } from "../support/stores.ts"

/** A receiver that refuses every event about `poison` (500) and takes the rest, recording what it got. */
const receiver = () => {
  const received: Array<{ readonly resourceId: string; readonly id: string }> = []
  const resources = new Map<string, string>()
  const layer = Layer.succeed(WebhookTransport, {
    post: (_url, _headers, body) =>
      Effect.sync(() => {
        const { id } = JSON.parse(body) as { id: string }
        const resourceId = resources.get(id)!
        if (resourceId === "poison") return { status: 500, body: "" }
        received.push({ resourceId, id })
        return { status: 200, body: "" }
      })
  })
  return { layer, received, resources }
}

const stores = everyStore("heads")

describe.each(stores)("webhook queues per resource (%s store)", (_name, store) => {
  it("a resource stuck on a failing receiver, with more queued events than a pass reads, does not hold back other resources", async () => {
    const r = receiver()
    const engine = await Engine.make({ store: store(), clock: "virtual", clockStartMs: Date.UTC(2026, 5, 1), webhookTransport: r.layer })
    const platform = await engine.platform({ clientId: "c", clientSecret: "s", webhookUrl: "http://receiver.test/hook" })
    const publish = outboxPublisher(engine, platform.id, r.resources)
    for (let i = 0; i <= WEBHOOK_DUE_BATCH; i++) await publish("poison")
    const healthy = [await publish("healthy"), await publish("healthy")]

    const pass = await engine.run(deliverAll)
    // The poison head is tried once, the healthy head delivered; the rest of each queue waits.
    expect(pass).toEqual({ attempted: 2, delivered: 1 })
    await engine.run(Effect.flatMap(TimeControl, (t) => t.advance(3600)))
    await engine.run(deliverAll)
    expect(r.received).toEqual(healthy.map((e) => ({ resourceId: "healthy", id: e.id })))
    await engine.dispose()
  })
})

it("a later event of a resource waits for the earlier one, then becomes due as soon as it settles", async () => {
  const r = receiver()
  const engine = makeEngine({ store: MemoryStore.layer, clock: "virtual", clockStartMs: Date.UTC(2026, 5, 1), webhookTransport: r.layer })
  const platform = await engine.platform({ clientId: "c", clientSecret: "s", webhookUrl: "http://receiver.test/hook" })
  const publish = outboxPublisher(engine, platform.id, r.resources)
  const first = await publish("r1")
  const second = await publish("r1")
  expect(first.waiting).toBeUndefined()
  expect(second.waiting).toBe(true)
  expect(await engine.run(deliverAll)).toEqual({ attempted: 1, delivered: 1 })
  expect(await engine.run(deliverAll)).toEqual({ attempted: 1, delivered: 1 })
  expect(r.received.map((e) => e.id)).toEqual([first.id, second.id])
  await engine.dispose()
})
