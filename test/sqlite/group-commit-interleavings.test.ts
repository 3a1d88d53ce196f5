import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Database from "better-sqlite3"
import { describe, expect, it } from "vitest"
import { Effect, Layer, Option } from "effect"
import { collection, makeEngine, Store, StoreError } from "@tessera/core"
import { awaitDurable } from "@tessera/core/store-kit"
import { GroupCommit, makeSqliteStore, openDatabase, walFileSync, type WalSync } from "@tessera/adapter-sqlite"
import { tracked, until } from "../support/turns.ts"

/**
 * Interleavings of batched group commit (DECISIONS #480-#486) that the HTTP tests cannot pin down:
 * a write transaction that suspends inside, under the test's control, while the open group holds
 * other writes and the log's sync is in flight (each background sync waits until `settle`).
 */
const controlledSync = (walPath: string) => {
  const real = walFileSync(walPath)
  const pending: Array<(error: Error | null) => void> = []
  const sync: WalSync = { sync: (done) => pending.push(done), syncNow: real.syncNow, close: real.close }
  const settle = () => real.sync(pending.shift()!)
  const fail = () => pending.shift()!(Object.assign(new Error("EIO: i/o error, fdatasync"), { code: "EIO" }))
  return { sync, pending, settle, fail }
}

const Users = collection<{ id: string; email: string }>()("users", (u) => u.id, { email: { kind: "unique", keys: (u) => u.email } })

const setUp = () => {
  const filename = join(mkdtempSync(join(tmpdir(), "tessera-interleave-")), "g.sqlite")
  const db = openDatabase({ filename })
  // A deferred foreign key is checked at COMMIT: a violation left in the group's transaction fails it.
  db.exec("CREATE TABLE zz_parent (id TEXT PRIMARY KEY); CREATE TABLE zz_child (p TEXT REFERENCES zz_parent (id) DEFERRABLE INITIALLY DEFERRED)")
  const control = controlledSync(`${filename}-wal`)
  const store = makeSqliteStore(db, { groupCommit: new GroupCommit(control.sync) })
  const engine = makeEngine({ store: Layer.succeed(Store, store) })
  const run = <X, E>(e: Effect.Effect<X, E>) => Effect.runPromise(e)
  return { db, control, store, engine, run, filename }
}

/** A promise the test resolves: what a program inside its write transaction waits on (crypto, say). */
const gate = () => {
  let open = () => {}
  const promise = new Promise<void>((r) => (open = r))
  return { wait: Effect.promise(() => promise), open: () => open() }
}

describe("SQLite group commit: interleavings", () => {
  it("a single write outside a transaction that queued for the permit and is refused by a record of the open group waits for it, and fails when it is lost", async () => {
    const { db, control, store, run } = setUp()
    const seeded = run(Effect.zipRight(store.put(Users, "p", { id: "s", email: "s@example.com" }), awaitDurable))
    await until(() => control.pending.length === 1)
    // A write transaction suspends inside; a single write with the same email queues behind it.
    const g = gate()
    const first = tracked(run(Effect.either(Effect.zipRight(store.transaction(Effect.zipRight(g.wait, store.put(Users, "p", { id: "u1", email: "e@example.com" }))), awaitDurable))))
    await until(() => db.inTransaction)
    const refused = tracked(run(Effect.either(Effect.flatMap(Effect.flip(store.put(Users, "p", { id: "u2", email: "e@example.com" })), (e) => Effect.as(awaitDurable, e)))))
    g.open()
    await until(() => db.prepare("SELECT count(*) AS n FROM records WHERE data LIKE '%\"u1\"%'").pluck().get() === 1)
    for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r))
    // Its refusal names u1, which is neither committed nor synced: it is not answered yet.
    expect(refused.settled).toBe(false)
    // And u1's group is then lost (its COMMIT fails): the refusal must not be answered at all.
    db.prepare("INSERT INTO zz_child (p) VALUES ('nobody')").run()
    control.settle()
    await seeded
    for (const answer of [await first.value, await refused.value]) {
      expect(answer._tag).toBe("Left")
      if (answer._tag === "Left") expect(answer.left).toBeInstanceOf(StoreError)
    }
  })

  it("a read outside a write transaction answers at once while another program is suspended inside one, synchronously too", async () => {
    const { db, control, store, engine, run } = setUp()
    const seeded = run(Effect.zipRight(store.put(Users, "p", { id: "s", email: "s@example.com" }), awaitDurable))
    await until(() => control.pending.length === 1)
    // The open group holds x; then a program suspends inside its own write transaction.
    await run(store.put(Users, "p", { id: "x", email: "x@example.com" }))
    const g = gate()
    const writer = tracked(run(Effect.zipRight(store.transaction(Effect.zipRight(g.wait, store.put(Users, "p", { id: "y", email: "y@example.com" }))), awaitDurable)))
    await until(() => db.inTransaction)
    const get = Effect.flatMap(Store, (s) => s.get(Users, "p", "x"))
    expect(Option.isSome(engine.runSync(get))).toBe(true)
    const read = tracked(engine.run(get))
    await until(() => read.settled)
    expect(writer.settled).toBe(false)
    g.open()
    control.settle()
    await seeded
    await until(() => control.pending.length === 1)
    control.settle()
    await writer.value
  })

  it("after a failed sync, the writes gathered meanwhile (answered 503) are rolled back: the file's write lock is free and reads no longer find them", async () => {
    const { db, control, store, run, filename } = setUp()
    const seeded = run(Effect.either(Effect.zipRight(store.put(Users, "p", { id: "s", email: "s@example.com" }), awaitDurable)))
    await until(() => control.pending.length === 1)
    const gathered = run(Effect.either(Effect.zipRight(store.put(Users, "p", { id: "g", email: "g@example.com" }), awaitDurable)))
    await until(() => db.inTransaction)
    control.fail()
    for (const answer of [await seeded, await gathered]) expect(answer._tag).toBe("Left")
    // The store refuses writes until restart (#314), and holds nothing meanwhile (#483).
    expect(db.inTransaction).toBe(false)
    const other = new Database(filename)
    other.pragma("busy_timeout = 0")
    other.exec("BEGIN IMMEDIATE; CREATE TABLE zz_other (x); COMMIT")
    other.close()
    expect(Option.isNone(await run(store.get(Users, "p", "g")))).toBe(true)
  })
})
