import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { Effect } from "effect"
import { collection, Customers, Outbox, sortableInstant } from "@tessera/core"
import { makeSqliteStore, migrate, migrations, openDatabase, reindex } from "@tessera/adapter-sqlite"
import { twinsOf } from "@tessera/core/store-kit"
import { customerRecord as customer } from "./customer-fixture.ts"

const run = <A, E>(e: Effect.Effect<A, E>) => Effect.runPromise(e)
const freshFile = () => join(mkdtempSync(join(tmpdir(), "tessera-compact-")), "store.sqlite")

interface Note {
  readonly id: string
  readonly big?: string
}
const Notes = collection<Note>()("notes", (n) => n.id)

/** Two connections (two processes' worth) on one new file, and what each lists in a scope. */
const twoConnections = () => {
  const filename = freshFile()
  const dbA = openDatabase({ filename })
  const dbB = openDatabase({ filename })
  const a = makeSqliteStore(dbA)
  const b = makeSqliteStore(dbB)
  const ids = async (store: typeof a, scope: string) => (await run(store.list(Notes, scope, { limit: 10 }))).items.map((n) => n.id)
  const close = () => {
    dbA.close()
    dbB.close()
  }
  return { dbA, a, b, ids, close }
}

describe("SQLite migration 4: names become numbers", () => {
  it("a version-3 file keeps its records, indexes, counters and sequence", async () => {
    const filename = freshFile()
    // A version-2 file with records in two platforms; migration 3 builds its index rows and
    // counters (as version 3 wrote them), then migration 4 renumbers them.
    const old = openDatabase({ filename }, migrations.filter((m) => m.version <= 2))
    const insert = old.prepare("INSERT INTO records (collection, scope, id, data) VALUES (?, ?, ?, ?)")
    const webhook = { id: "Webhook:1", type: "T", timestamp: "2026-01-01T00:00:00.000Z", data: {}, resourceId: "r1", nextAttemptAtMs: 1_000 }
    insert.run("outbox", "p1", webhook.id, JSON.stringify(webhook))
    insert.run("customers", "p2", "Customer:1", JSON.stringify(customer(1, { platformCustomerId: "other" })))
    for (let n = 1; n <= 7; n++) insert.run("customers", "p1", `Customer:${n}`, JSON.stringify(customer(n, { isDeleted: n === 3 })))
    // The newest customer was removed: its seq must never be given again.
    const newest = old.prepare("SELECT max(seq) AS seq FROM records").get() as { seq: number }
    old.prepare("DELETE FROM records WHERE seq = ?").run(newest.seq)
    old.close()
    const v3 = openDatabase({ filename }, migrations.filter((m) => m.version <= 3))
    expect(v3.prepare("SELECT count(*) AS n FROM record_index WHERE collection = 'customers' AND scope = 'p1'").get()).not.toEqual({ n: 0 })
    v3.close()

    const db = openDatabase({ filename })
    expect(db.prepare("SELECT max(version) AS v FROM schema_migrations").get()).toEqual({ v: 4 })
    // The indexes answered by their plain twins keep no rows of their own (migration 4 names
    // them: this fails if the declarations and the migration part ways); every other has rows.
    const rowsOf = db.prepare<[string], { n: number }>("SELECT count(*) AS n FROM record_index JOIN spaces ON space = ix WHERE collection = 'customers' AND name = ?")
    const twins = [...twinsOf(Customers).keys()]
    const twinRows = { get: () => ({ n: twins.reduce((n, name) => n + rowsOf.get(name)!.n, 0) }) }
    expect(twins.sort()).toEqual(["activePlatformCustomerId", "umaAddress"])
    expect(twinRows.get()).toEqual({ n: 0 })
    for (const name of ["active", "platformCustomerId", "anyUmaAddress", "customerType", "createdAt"]) expect(rowsOf.get(name)!.n).toBeGreaterThan(0)
    const store = makeSqliteStore(db)
    const all = await run(store.list(Customers, "p1", { limit: 3 }))
    expect([all.items.map((c) => c.id), all.totalCount, all.hasMore]).toEqual([["Customer:1", "Customer:2", "Customer:3"], 6, true])
    const active = await run(store.list(Customers, "p1", { where: [{ index: "active", eq: "yes" }], limit: 10 }))
    expect([active.items.map((c) => c.id), active.totalCount]).toEqual([["Customer:1", "Customer:2", "Customer:4", "Customer:5", "Customer:6"], 5])
    expect((await run(store.findBy(Customers, "p2", "platformCustomerId", "other"))).map((c) => c.id)).toEqual(["Customer:1"])
    expect(await run(store.findBy(Customers, "p1", "platformCustomerId", "other"))).toEqual([])
    expect((await run(store.due(Outbox, "p1", "due", sortableInstant(5_000)!, 10))).map((e) => e.id)).toEqual(["Webhook:1"])
    const clash = await run(Effect.flip(store.put(Customers, "p1", customer(8, { umaAddress: "$c2@x.test" }))))
    expect(clash).toMatchObject({ _tag: "UniqueViolation", index: "umaAddress", existingId: "Customer:2" })
    await run(store.put(Customers, "p1", customer(9)))
    expect(twinRows.get()).toEqual({ n: 0 })
    const seq = db.prepare("SELECT seq FROM records WHERE id = 'Customer:9'").get() as { seq: number }
    expect(seq.seq).toBeGreaterThan(newest.seq)
    expect((await run(store.list(Customers, "p1", { limit: 1 }))).totalCount).toBe(7)
    db.close()
  })

  it("a number assigned by a rolled-back write is not kept: another process may assign it next", async () => {
    const { a, b, ids, close } = twoConnections()
    // A's first write in scope "a" assigns it a number, and fails.
    const failing = a.transaction(Effect.zipRight(a.put(Notes, "a", { id: "lost" }), Effect.fail("boom" as const)))
    expect(await run(Effect.flip(failing))).toBe("boom")
    // B writes first in scope "b": SQLite may hand it the number A's write freed.
    await run(b.put(Notes, "b", { id: "from-b" }))
    await run(a.put(Notes, "a", { id: "from-a" }))
    expect(await ids(b, "b")).toEqual(["from-b"])
    expect(await ids(a, "a")).toEqual(["from-a"])
    expect(await ids(b, "a")).toEqual(["from-a"])
    close()
  })

  it("reindex builds an index declared later, with its counters, for the records already written", async () => {
    interface Tagged {
      readonly id: string
      readonly tag: string
    }
    const before = collection<Tagged>()("notes", (n) => n.id)
    const after = collection<Tagged>()("notes", (n) => n.id, { tag: { kind: "plain", keys: (n) => n.tag, counted: true } })
    const db = openDatabase({ filename: freshFile() })
    const store = makeSqliteStore(db)
    for (const [scope, id, tag] of [["p1", "a", "x"], ["p1", "b", "y"], ["p1", "c", "x"], ["p2", "d", "x"]] as const) await run(store.put(before, scope, { id, tag }))
    migrate(db, [...migrations, { version: 5, run: (d) => reindex(d, [after]) }])
    const fresh = makeSqliteStore(db)
    expect((await run(fresh.findBy(after, "p1", "tag", "x"))).map((n) => n.id)).toEqual(["a", "c"])
    const page = await run(fresh.list(after, "p1", { where: [{ index: "tag", eq: "x" }], limit: 1 }))
    expect([page.items.map((n) => n.id), page.totalCount, page.hasMore]).toEqual([["a"], 2, true])
    expect((await run(fresh.list(after, "p2", { where: [{ index: "tag", eq: "x" }], limit: 10 }))).totalCount).toBe(1)
    db.close()
  })

  it("a number assigned in a transaction SQLite rolled back by itself (disk full) is not used after it", async () => {
    const { dbA, a, b, ids, close } = twoConnections()
    await run(a.put(Notes, "seed", { id: "s" }))
    dbA.pragma(`max_page_count = ${Number(dbA.pragma("page_count", { simple: true })) + 2}`)
    // The first write in scope "a" assigns it a number; the next fills the disk, and SQLite
    // rolls the whole transaction back; the program carries on past the error.
    const body = Effect.gen(function* () {
      yield* a.put(Notes, "a", { id: "first" })
      const full = yield* Effect.either(a.put(Notes, "a", { id: "big", big: "x".repeat(200_000) }))
      expect(full._tag).toBe("Left")
      yield* a.put(Notes, "a", { id: "after" })
    })
    await run(Effect.either(Effect.catchAllDefect(a.transaction(body), () => Effect.void)))
    dbA.pragma("max_page_count = 1000000")
    await run(b.put(Notes, "b", { id: "from-b" }))
    expect(await ids(b, "b")).toEqual(["from-b"])
    expect(await ids(a, "b")).toEqual(["from-b"])
    expect(await ids(a, "a")).not.toContain("from-b")
    close()
  })
})
