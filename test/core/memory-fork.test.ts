import { describe, expect, it } from "vitest"
import { makeEngine } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"

describe("memory store snapshot, restore and fork", () => {
  it("forks a world that then evolves independently", async () => {
    const handle = MemoryStore.make()
    const engine = makeEngine({ store: handle.layer, seed: 1 })
    const platform = await engine.platform({ clientId: "p", clientSecret: "s" })
    await engine.as(platform).customers.create({ customerType: "INDIVIDUAL", fullName: "Base" })

    const forked = makeEngine({ store: handle.fork().layer, seed: 2 })
    await forked.as(platform).customers.create({ customerType: "INDIVIDUAL", fullName: "Only in fork" })
    expect((await engine.as(platform).customers.list()).totalCount).toBe(1)
    expect((await forked.as(platform).customers.list()).totalCount).toBe(2)

    const snap = handle.snapshot()
    await engine.as(platform).customers.create({ customerType: "INDIVIDUAL", fullName: "After snapshot" })
    expect((await engine.as(platform).customers.list()).totalCount).toBe(2)
    handle.restore(snap)
    expect((await engine.as(platform).customers.list()).totalCount).toBe(1)
    // Restoring does not tie the store to the snapshot: it can be restored again.
    await engine.as(platform).customers.create({ customerType: "INDIVIDUAL", fullName: "Again" })
    handle.restore(snap)
    expect((await engine.as(platform).customers.list()).totalCount).toBe(1)
  })

  it("seeded engines on the same operations produce the same ids", async () => {
    const run = async () => {
      const engine = makeEngine({ store: MemoryStore.layer, seed: 42, clock: "virtual", clockStartMs: Date.UTC(2026, 0, 1) })
      const platform = await engine.platform({ clientId: "p", clientSecret: "s" })
      return engine.as(platform).customers.create({ customerType: "INDIVIDUAL", fullName: "Same 001" })
    }
    expect(await run()).toEqual(await run())
  })
})
