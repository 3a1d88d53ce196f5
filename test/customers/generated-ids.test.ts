// Customers created without a platformCustomerId or UMA address get both from their uuid
// (DECISIONS #487): distinct even when many are made in the same millisecond, in creation order
// while they are made within a minute, and answered as the reference shapes them.
import { describe, expect, it } from "vitest"
import { createCustomer } from "@tessera/core/operations"
import { makeEngine } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"

describe("generated platformCustomerId and UMA address", () => {
  it("are distinct across a burst of creations, sort in creation order, and the address carries the id", async () => {
    const engine = makeEngine({ store: MemoryStore.layer })
    const platform = await engine.platform({ clientId: "gen", clientSecret: "gen-secret" })
    const made = Array.from({ length: 2_000 }, (_, i) => engine.runSync(createCustomer(platform, { customerType: "INDIVIDUAL", fullName: "Burst", email: `b${i}@example.com` })))
    const ids = made.map((c) => c.platformCustomerId)
    for (const c of made) {
      expect(c.platformCustomerId).toMatch(/^[0-9a-f]{16}$/)
      expect(c.umaAddress).toMatch(new RegExp(`^\\$${c.platformCustomerId}\\.[0-9a-f]{6}@`))
    }
    expect(new Set(ids).size).toBe(ids.length)
    expect(new Set(made.map((c) => c.umaAddress)).size).toBe(made.length)
    // Their first four digits are the creation's millisecond (its low 16 bits): non-decreasing
    // unless the burst crossed a 65.536 s boundary, which it does not in a test this short.
    const ms = ids.map((p) => parseInt(p.slice(0, 4), 16))
    const wraps = ms.filter((m, i) => i > 0 && m < ms[i - 1]!).length
    expect(wraps).toBeLessThanOrEqual(1)
    await engine.dispose()
  })
})
