import { describe, expect, it } from "vitest"
import { Effect, Layer } from "effect"
import { deliverAll, Engine, WEBHOOK_CONCURRENCY, WebhookTransport } from "@tessera/core"
import { everyStore, outboxPublisher } from "../support/stores.ts"

/**
 * A slow receiver (each answer takes 200 ms of real time) that records what it got and how many
 * posts were in flight at once, overall and per resource.
 */
const slowReceiver = () => {
  const received: Array<{ readonly resourceId: string; readonly id: string }> = []
  const resources = new Map<string, string>()
  const inFlight = new Map<string, number>()
  let current = 0
  const seen = { maxInFlight: 0, maxPerResource: 0 }
  const layer = Layer.succeed(WebhookTransport, {
    post: (_url, _headers, body) =>
      Effect.promise(async () => {
        const { id } = JSON.parse(body) as { id: string }
        const resourceId = resources.get(id)!
        current++
        inFlight.set(resourceId, (inFlight.get(resourceId) ?? 0) + 1)
        seen.maxInFlight = Math.max(seen.maxInFlight, current)
        seen.maxPerResource = Math.max(seen.maxPerResource, inFlight.get(resourceId)!)
        await new Promise((r) => setTimeout(r, 200))
        current--
        inFlight.set(resourceId, inFlight.get(resourceId)! - 1)
        received.push({ resourceId, id })
        return { status: 200, body: "" }
      })
  })
  return { layer, received, resources, seen }
}

const stores = everyStore("concurrent")

describe.each(stores)("a delivery pass sends to many resources at once (%s store)", (_name, store) => {
  it("a slow receiver takes up to WEBHOOK_CONCURRENCY attempts at once, one per resource, each resource's events in order", async () => {
    const r = slowReceiver()
    const engine = await Engine.make({ store: store(), clock: "virtual", clockStartMs: Date.UTC(2026, 5, 1), webhookTransport: r.layer })
    const platform = await engine.platform({ clientId: "c", clientSecret: "s", webhookUrl: "http://receiver.test/hook" })
    const publish = outboxPublisher(engine, platform.id, r.resources)
    const resources = Array.from({ length: WEBHOOK_CONCURRENCY + 4 }, (_, i) => `r${i}`)
    const published = new Map<string, Array<string>>()
    for (let round = 0; round < 2; round++) for (const id of resources) published.set(id, [...(published.get(id) ?? []), (await publish(id)).id])

    // One pass: every resource's head, as many at once as the bound allows, never two of a resource.
    expect(await engine.run(deliverAll)).toEqual({ attempted: resources.length, delivered: resources.length })
    expect(r.seen.maxInFlight).toBe(WEBHOOK_CONCURRENCY)
    expect(r.seen.maxPerResource).toBe(1)
    expect(await engine.run(deliverAll)).toEqual({ attempted: resources.length, delivered: resources.length })
    for (const id of resources)
      expect(r.received.filter((e) => e.resourceId === id).map((e) => e.id)).toEqual(published.get(id))
    expect(await engine.run(deliverAll)).toEqual({ attempted: 0, delivered: 0 })
    await engine.dispose()
  })
})
