// The in-process bench's memory baseline must do the store's unavoidable work for the same
// records, no less: every record by id and every index entry the memory store keeps for them.
import { describe, expect, it } from "vitest"
import { makeEngine } from "@tessera/core"
import { createCustomer } from "@tessera/core/operations"
import { MemoryStore, type Snapshot } from "@tessera/adapter-memory"
import { RawMaps, readEveryIndex, recordsOf } from "./raw-maps.ts"

/** The same shape read from the memory store's own world: records per shelf, keys and ids per index. */
const storeShape = (s: Snapshot): Record<string, number> => {
  const out: Record<string, number> = {}
  const world = (s as unknown as { world: { shelves: Map<string, Map<string, { rows: Map<string, unknown>; indexes: Map<string, { keys: Map<string, string | { size: number }> }> }>> } }).world
  for (const [name, byScope] of world.shelves)
    for (const [scope, shelf] of byScope) {
      out[`${name}\u0000${scope}\u0000rows`] = shelf.rows.size
      for (const [index, state] of shelf.indexes) {
        if (state.keys.size === 0) continue
        out[`${name}\u0000${scope}\u0000${index}\u0000keys`] = state.keys.size
        out[`${name}\u0000${scope}\u0000${index}\u0000ids`] = [...state.keys.values()].reduce((n: number, ids) => n + (typeof ids === "string" ? 1 : ids.size), 0)
      }
    }
  return out
}

describe("the in-process bench's plain-Maps baseline", () => {
  it("holds, for the records of customer creations, every record and index entry the memory store holds once every index is read", async () => {
    const handle = MemoryStore.make()
    const engine = makeEngine({ store: handle.layer })
    const platform = await engine.platform({ clientId: "raw", clientSecret: "s" })
    for (let i = 0; i < 60; i++) engine.runSync(createCustomer(platform, { customerType: "INDIVIDUAL", fullName: `P ${i}`, email: `p${i}@example.com` }))
    // Created only, the store keeps the indexes its puts read (DECISIONS #532): fewer than the baseline.
    const created = recordsOf(handle.snapshot())
    const before = storeShape(handle.snapshot())
    engine.runSync(readEveryIndex(created))
    const snapshot = handle.snapshot()
    const records = recordsOf(snapshot)
    expect(Object.keys(storeShape(snapshot)).length).toBeGreaterThan(Object.keys(before).length)
    // The platform, and three records a creation.
    expect(records.filter((r) => r.c.name === "customers")).toHaveLength(60)
    expect(records.length).toBeGreaterThanOrEqual(181)
    const raw = new RawMaps()
    for (const r of records) raw.put(r)
    const expected = storeShape(snapshot)
    expect(Object.keys(expected).length).toBeGreaterThan(6)
    expect(raw.shape()).toEqual(expected)
    // A copy is independent: writing to it leaves the original as it was.
    const copy = raw.copy()
    copy.put({ ...records[records.length - 1]!, id: "another", seq: 1e9 })
    expect(raw.shape()).toEqual(expected)
    expect(copy.shape()).not.toEqual(expected)
    await engine.dispose()
  })
})
