import { describe, expect, it } from "vitest"
import { Effect, Layer } from "effect"
import { deliverAll, Engine, Outbox, Store, WEBHOOK_CLAIM_MS, WebhookTransport } from "@tessera/core"
import { advanceClock } from "@tessera/core/operations"
import { everyStore, outboxPublisher } from "../support/stores.ts"

/** A receiver whose answers take `ms` of real time and that counts the posts per event id. */
const countingTransport = (ms: number, status = 200) => {
  const posts = new Map<string, number>()
  const layer = Layer.succeed(WebhookTransport, {
    post: (_url, _headers, body) =>
      Effect.promise(async () => {
        const { id } = JSON.parse(body) as { id: string }
        posts.set(id, (posts.get(id) ?? 0) + 1)
        await new Promise((r) => setTimeout(r, ms))
        return { status, body: "" }
      })
  })
  return { layer, posts }
}

const stores = everyStore("claims")

/**
 * Passes that overlap (as the workers of several instances on one database do) share the due
 * events out: each head is claimed by one pass before it is sent (DECISIONS #300).
 */
describe.each(stores)("delivery passes running at the same time (%s store)", (_name, store) => {
  it("three overlapping passes send each due event once, and together attempt each once", async () => {
    const r = countingTransport(30)
    const engine = await Engine.make({ store: store(), clock: "virtual", clockStartMs: Date.UTC(2026, 5, 1), webhookTransport: r.layer })
    const platform = await engine.platform({ clientId: "c", clientSecret: "s", webhookUrl: "http://receiver.test/hook" })
    const publish = outboxPublisher(engine, platform.id, new Map())
    const ids: Array<string> = []
    for (let i = 0; i < 24; i++) ids.push((await publish(`r${i}`)).id)

    const passes = await Promise.all([engine.run(deliverAll), engine.run(deliverAll), engine.run(deliverAll)])
    expect(passes.reduce((n, p) => n + p.attempted, 0)).toBe(24)
    expect(passes.reduce((n, p) => n + p.delivered, 0)).toBe(24)
    expect([...r.posts.values()].every((n) => n === 1)).toBe(true)
    expect([...r.posts.keys()].sort()).toEqual([...ids].sort())
    expect(await engine.run(deliverAll)).toEqual({ attempted: 0, delivered: 0 })
    await engine.dispose()
  })

  it("a claim holds on the wall clock: an advance of the virtual clock far past it frees nothing; once its wall-clock deadline passed, the event is due again", async () => {
    const r = countingTransport(0, 200)
    const engine = await Engine.make({ store: store(), clock: "virtual", clockStartMs: Date.UTC(2026, 5, 1), webhookTransport: r.layer })
    const platform = await engine.platform({ clientId: "c", clientSecret: "s", webhookUrl: "http://receiver.test/hook" })
    const event = await outboxPublisher(engine, platform.id, new Map())("r")
    const claimUntil = (claimedUntilWallMs: number) =>
      engine.run(Effect.flatMap(Store, (s) => s.transaction(s.put(Outbox, platform.id, { ...event, claimedUntilWallMs }))))
    // An instance claimed it and is sending (or died sending): the record carries the claim, no attempt.
    await claimUntil(Date.now() + WEBHOOK_CLAIM_MS)
    expect(await engine.run(deliverAll)).toEqual({ attempted: 0, delivered: 0 })
    await engine.run(advanceClock({ seconds: 3600 }))
    expect(await engine.run(deliverAll)).toEqual({ attempted: 0, delivered: 0 })
    // Its wall-clock deadline has passed (as it would WEBHOOK_CLAIM_MS after a crash): another pass takes it.
    await claimUntil(Date.now() - 1)
    expect(await engine.run(deliverAll)).toEqual({ attempted: 1, delivered: 1 })
    expect(r.posts.get(event.id)).toBe(1)
    const stored = await engine.run(Effect.flatMap(Store, (s) => s.get(Outbox, platform.id, event.id)))
    expect(stored._tag === "Some" && stored.value.claimedUntilWallMs).toBe(undefined)
    await engine.dispose()
  })
})
