import { makeEngine } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"

export const world = MemoryStore.make()
export const engine = makeEngine({ store: world.layer, seed: 42, clock: "virtual" })
export const platform = await engine.platform({ clientId: "t", clientSecret: "t" })
await engine.as(platform).customers.create({ customerType: "INDIVIDUAL", fullName: "Base" })

export const branch = makeEngine({ store: world.fork().layer })   // an independent copy, ~1 ms for 1,000 customers
export const snap = world.snapshot()                               // … and world.restore(snap) to rewind
