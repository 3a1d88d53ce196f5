import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { makeEngine } from "@tessera/core"
import { SqliteStore } from "@tessera/adapter-sqlite"

describe("README examples (test/examples), run as written", () => {
  it("embedding: a customer created on a SQLite file, a failure as a tagged domain error", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tessera-embed-"))
    process.env["TESSERA_DB"] = join(dir, "dev.sqlite")
    try {
      const { engine, customer, refusal } = await import("../examples/embedding.ts")
      expect(customer).toMatchObject({ customerType: "INDIVIDUAL", fullName: "Ada 001" })
      expect([refusal._tag, refusal.status]).toEqual(["INVALID_INPUT", 400])
      await engine.dispose()
      // The customer is on the file, for the next process to find.
      const again = makeEngine({ store: SqliteStore.layer({ filename: join(dir, "dev.sqlite") }) })
      const platform = await again.platform({ clientId: "my-app", clientSecret: "s3cret" })
      expect(await again.as(platform).customers.get(customer.id)).toEqual(customer)
      await again.dispose()
    } finally {
      delete process.env["TESSERA_DB"]
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("in-memory store: a fork evolves on its own, a snapshot rewinds", async () => {
    const { world, engine, platform, branch, snap } = await import("../examples/memory-store.ts")
    await branch.as(platform).customers.create({ customerType: "INDIVIDUAL", fullName: "Only in the branch" })
    expect((await branch.as(platform).customers.list()).totalCount).toBe(2)
    await engine.as(platform).customers.create({ customerType: "INDIVIDUAL", fullName: "After the snapshot" })
    expect((await engine.as(platform).customers.list()).totalCount).toBe(2)
    world.restore(snap)
    const left = await engine.as(platform).customers.list()
    expect(left.data.map((c: { fullName?: string }) => c.fullName)).toEqual(["Base"])
  })
})
