import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { Effect } from "effect"
import { collection, Customers, Outbox, sortableInstant } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { makeSqliteStore, migrations, openDatabase } from "@tessera/adapter-sqlite"
import { customerRecord } from "./customer-fixture.ts"

const customer = (n: number, deleted: boolean) => customerRecord(n, { isDeleted: deleted })

describe("an index added later is built for the records written before it", () => {
  it("SQLite: migration 3 backfills the new indexes and counters of a version-2 file", async () => {
    const filename = join(mkdtempSync(join(tmpdir(), "tessera-backfill-")), "old.sqlite")
    // A file as version 2 left it: records, and index rows only for the indexes it knew.
    const old = openDatabase({ filename }, migrations.filter((m) => m.version <= 2))
    const insert = old.prepare("INSERT INTO records (collection, scope, id, data) VALUES (?, ?, ?, ?)")
    const index = old.prepare("INSERT INTO record_index (collection, scope, name, key, id) VALUES (?, ?, ?, ?, ?)")
    for (let n = 1; n <= 6; n++) {
      const c = customer(n, n === 3)
      insert.run("customers", "p1", c.id, JSON.stringify(c))
      index.run("customers", "p1", "platformCustomerId", c.platformCustomerId, c.id)
    }
    const events = [
      { id: "Webhook:1", type: "T", timestamp: "2026-01-01T00:00:00.000Z", data: {}, resourceId: "r1", nextAttemptAtMs: 1_000 },
      { id: "Webhook:2", type: "T", timestamp: "2026-01-01T00:00:00.000Z", data: {}, resourceId: "r2", deliveredAt: "2026-01-01T00:00:01.000Z" },
      { id: "Webhook:3", type: "T", timestamp: "2026-01-01T00:00:00.000Z", data: {}, resourceId: "r3", nextAttemptAtMs: 9_000 }
    ]
    for (const e of events) insert.run("outbox", "p1", e.id, JSON.stringify(e))
    old.close()

    const db = openDatabase({ filename })
    const store = makeSqliteStore(db)
    const run = <A, E>(e: Effect.Effect<A, E>) => Effect.runPromise(e)
    const active = await run(store.list(Customers, "p1", { where: [{ index: "active", eq: "yes" }], limit: 2 }))
    expect([active.items.map((c) => c.id), active.totalCount, active.hasMore]).toEqual([["Customer:1", "Customer:2"], 5, true])
    const businesses = await run(store.list(Customers, "p1", { where: [{ index: "active", eq: "yes" }, { index: "customerType", eq: "BUSINESS" }], limit: 10 }))
    expect(businesses.items.map((c) => c.id)).toEqual(["Customer:1", "Customer:5"])
    expect((await run(store.list(Customers, "p1", { limit: 1 }))).totalCount).toBe(6)
    const due = await run(store.due(Outbox, "p1", "due", sortableInstant(5_000)!, 10))
    expect(due.map((e) => e.id)).toEqual(["Webhook:1"])
    // The backfilled unique index is enforced.
    const clash = await run(Effect.flip(store.put(Customers, "p1", { ...customer(7, false), umaAddress: "$C2@x.test" })))
    expect(clash).toMatchObject({ _tag: "UniqueViolation", index: "umaAddress", existingId: "Customer:2" })
    db.close()
  })

  it("memory: a shelf builds a newly declared index from its records on first use", async () => {
    interface Note {
      readonly id: string
      readonly tag: string
    }
    const before = collection<Note>()("notes", (n) => n.id)
    const after = collection<Note>()("notes", (n) => n.id, { tag: { kind: "plain", keys: (n) => n.tag } })
    const store = MemoryStore.make().service
    for (const [id, tag] of [["a", "x"], ["b", "y"], ["c", "x"]] as const) await Effect.runPromise(store.put(before, "p1", { id, tag }))
    expect((await Effect.runPromise(store.findBy(after, "p1", "tag", "x"))).map((n) => n.id)).toEqual(["a", "c"])
    const page = await Effect.runPromise(store.list(after, "p1", { where: [{ index: "tag", eq: "x" }], limit: 10 }))
    expect([page.items.map((n) => n.id), page.totalCount]).toEqual([["a", "c"], 2])
  })
})
