import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Database from "better-sqlite3"
import { afterEach, describe, expect, it } from "vitest"
import { Effect, Layer, Option } from "effect"
import { collection, makeEngine, Store, StoreError } from "@tessera/core"
import { awaitDurable } from "@tessera/core/store-kit"
import { GroupCommit, groupCommitOf, makeSqliteStore, openDatabase, walFileSync, type WalSync } from "@tessera/adapter-sqlite"
import { serve, type RunningServer } from "@tessera/adapter-http"
import { basic, CLIENT_ID, CLIENT_SECRET, individual } from "../support/server.ts"
import { checkResponse, operationFor } from "../support/openapi-checker.ts"
import { tracked, until } from "../support/turns.ts"

const V = "/2025-10-13"

/**
 * The log's sync under the test's control: each background sync waits until the test settles
 * it (`pending`), with success (the real fdatasync) or a disk error.
 */
const controlledSync = (walPath: string) => {
  const real = walFileSync(walPath)
  const pending: Array<(error: Error | null) => void> = []
  let failNow = false
  const diskError = () => Object.assign(new Error("EIO: i/o error, fdatasync"), { code: "EIO" })
  const sync: WalSync = {
    sync: (done) => pending.push(done),
    syncNow: () => {
      if (failNow) throw diskError()
      real.syncNow()
    },
    close: real.close
  }
  const settle = (ok: boolean) => {
    const done = pending.shift()!
    if (ok) real.sync(done)
    else done(diskError())
  }
  return { sync, pending, settle, failSyncNow: () => (failNow = true) }
}

const servers: Array<RunningServer> = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()))
})

const setUp = async () => {
  const filename = join(mkdtempSync(join(tmpdir(), "tessera-group-")), "g.sqlite")
  const db = openDatabase({ filename })
  const control = controlledSync(`${filename}-wal`)
  const engine = makeEngine({ store: Layer.succeed(Store, makeSqliteStore(db, { groupCommit: new GroupCommit(control.sync) })) })
  const platformPromise = engine.platform({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET })
  await until(() => control.pending.length === 1)
  control.settle(true)
  await platformPromise
  const server = await serve({ engine, port: 0 })
  servers.push(server)
  const origin = `http://127.0.0.1:${server.port}`
  // Raw requests (a 503 is what some of these tests expect, and the reference declares none for
  // these operations: its envelope is checked by the test), every other answer against the reference OpenAPI.
  const request = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(origin + path, {
      method,
      headers: { authorization: basic(), ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const parsed = JSON.parse(await res.text())
    if (res.status !== 503) expect(checkResponse(operationFor(method, path), res.status, parsed).problems, `${res.status} ${JSON.stringify(parsed)}`).toEqual([])
    return { status: res.status, body: parsed }
  }
  /** How many customers with this email prefix are committed (read on the store's own connection). */
  const committed = (prefix: string) =>
    (db.prepare("SELECT count(*) AS n FROM records JOIN spaces USING (space) WHERE collection = 'customers' AND data LIKE ?").get(`%"email":"${prefix}%`) as { n: number }).n
  /** The same count on a second connection: only what the store's connection has committed. */
  const committedElsewhere = (prefix: string) => {
    const other = new Database(filename, { readonly: true })
    try {
      return (other.prepare("SELECT count(*) AS n FROM records JOIN spaces USING (space) WHERE collection = 'customers' AND data LIKE ?").get(`%"email":"${prefix}%`) as { n: number }).n
    } finally {
      other.close()
    }
  }
  return { db, engine, control, request, committed, committedElsewhere, filename }
}

describe("SQLite group commit", () => {
  it("opens with WAL and synchronous=NORMAL, and FULL with group commit off", () => {
    const dir = mkdtempSync(join(tmpdir(), "tessera-pragmas-"))
    const on = openDatabase({ filename: join(dir, "on.sqlite") })
    expect(on.pragma("synchronous", { simple: true })).toBe(1)
    expect(groupCommitOf(on)).toBeInstanceOf(GroupCommit)
    const off = openDatabase({ filename: join(dir, "off.sqlite"), groupCommit: false })
    expect(off.pragma("synchronous", { simple: true })).toBe(2)
    expect(groupCommitOf(off)).toBeUndefined()
    on.close()
    off.close()
  })

  it("answers a write only after the log sync that follows its commit; reads do not wait", async () => {
    const { control, request, committed } = await setUp()
    const first = tracked(request("POST", `${V}/customers`, individual({ email: "a@example.com" })))
    await until(() => control.pending.length === 1)
    // Committed (a read sees it, at once) but not synced: not answered.
    expect(committed("a@")).toBe(1)
    const list = await request("GET", `${V}/customers`)
    expect(list.body.data.map((c: { email: string }) => c.email)).toContain("a@example.com")
    expect(first.settled).toBe(false)
    control.settle(true)
    expect((await first.value).status).toBe(201)
    expect(control.pending).toHaveLength(0)
  })

  it("writes committed during a sync wait for the next one, and that one sync releases them all", async () => {
    const { control, request, committed } = await setUp()
    const first = request("POST", `${V}/customers`, individual({ email: "a@example.com" }))
    await until(() => control.pending.length === 1)
    const writes = Array.from({ length: 5 }, (_, i) => tracked(request("POST", `${V}/customers`, individual({ email: `g${i}@example.com` }))))
    await until(() => committed("g") === 5)
    control.settle(true)
    expect((await first).status).toBe(201)
    await until(() => control.pending.length === 1)
    expect(writes.some((w) => w.settled)).toBe(false)
    control.settle(true)
    expect((await Promise.all(writes.map((w) => w.value))).map((r) => r.status)).toEqual([201, 201, 201, 201, 201])
    expect(control.pending).toHaveLength(0)
  })

  it("a failed sync answers every write waiting on it with a 503 envelope, then refuses writes until restart; reads still answer", async () => {
    const { control, request } = await setUp()
    const ok = request("POST", `${V}/customers`, individual({ email: "kept@example.com" }))
    await until(() => control.pending.length === 1)
    control.settle(true)
    const kept = await ok

    const waiting = Array.from({ length: 3 }, (_, i) => request("POST", `${V}/customers`, individual({ email: `lost${i}@example.com` })))
    await until(() => control.pending.length === 1)
    control.settle(false)
    for (const r of await Promise.all(waiting)) {
      expect(r.status).toBe(503)
      expect(r.body).toEqual({ status: 503, code: "SERVICE_UNAVAILABLE", message: expect.any(String), details: {} })
    }
    const later = await request("POST", `${V}/customers`, individual({ email: "later@example.com" }))
    expect(later.status).toBe(503)
    expect(control.pending).toHaveLength(0)
    const read = await request("GET", `${V}/customers/${kept.body.id}`)
    expect(read.status).toBe(200)
  })

  it("a program that suspends before it commits is answered only after the sync that follows its commit; one that commits nothing is answered at once", async () => {
    const { engine, control } = await setUp()
    const Docs = collection<{ id: string }>()("docs", (d) => d.id)
    const turn = Effect.promise(() => new Promise<void>((r) => setImmediate(r)))
    const write = tracked(engine.run(Effect.zipRight(turn, Effect.flatMap(Store, (s) => s.put(Docs, "p", { id: "late" })))))
    await until(() => control.pending.length === 1)
    expect(write.settled).toBe(false)
    // Another program, suspending then only reading, does not wait for that sync.
    const read = await engine.run(Effect.zipRight(turn, Effect.flatMap(Store, (s) => s.get(Docs, "p", "late"))))
    expect(Option.isSome(read)).toBe(true)
    expect(write.settled).toBe(false)
    control.settle(true)
    await write.value
    // And when that sync fails, the suspended writer gets the StoreError instead of its value.
    const lost = engine.run(Effect.zipRight(turn, Effect.flatMap(Store, (s) => s.put(Docs, "p", { id: "lost" }))))
    await until(() => control.pending.length === 1)
    control.settle(false)
    await expect(lost).rejects.toBeInstanceOf(StoreError)
  })

  it("a synchronous caller (engine.runSync) syncs the log before it returns, and gets the StoreError when it fails", async () => {
    const { db, engine, control } = await setUp()
    const Docs = collection<{ id: string }>()("docs", (d) => d.id)
    const put = (id: string) => Effect.flatMap(Store, (s) => s.put(Docs, "p", { id }))
    engine.runSync(put("a"))
    expect(control.pending).toHaveLength(0)
    expect(db.prepare("SELECT count(*) AS n FROM records JOIN spaces USING (space) WHERE collection = 'docs'").get()).toEqual({ n: 1 })
    // A read never syncs, and never fails for a broken disk.
    control.failSyncNow()
    expect(Option.isSome(engine.runSync(Effect.flatMap(Store, (s) => s.get(Docs, "p", "a"))))).toBe(true)
    expect(() => engine.runSync(put("b"))).toThrow(StoreError)
    expect(() => engine.runSync(put("c"))).toThrow(/could not be synced/)
  })

  it("writes that arrive during a sync share one SQLite transaction; one failing (409) undoes only its own writes, the others are durable", async () => {
    const { db, control, request, committed, committedElsewhere, filename } = await setUp()
    const taken = await settled(control, request("POST", `${V}/customers`, individual({ email: "taken@example.com", platformCustomerId: "P-1" })))
    expect(taken.status).toBe(201)
    const first = request("POST", `${V}/customers`, individual({ email: "a@example.com" }))
    await until(() => control.pending.length === 1)
    const writes = [
      ...Array.from({ length: 3 }, (_, i) => tracked(request("POST", `${V}/customers`, individual({ email: `g${i}@example.com` })))),
      tracked(request("POST", `${V}/customers`, individual({ email: "g-dup@example.com", platformCustomerId: "P-1" }))),
      tracked(request("POST", `${V}/customers`, individual({ email: "g3@example.com" })))
    ]
    await until(() => committed("g") === 4)
    // One open transaction holds the group: the store's connection sees it, no other does yet.
    expect(db.inTransaction).toBe(true)
    expect(committedElsewhere("g")).toBe(0)
    control.settle(true)
    expect((await first).status).toBe(201)
    expect(committedElsewhere("g")).toBe(4)
    await until(() => control.pending.length === 1)
    // The 409 read the group's records (the unique key's holder): it waits for their sync too.
    expect(writes.some((w) => w.settled)).toBe(false)
    control.settle(true)
    const answers = await Promise.all(writes.map((w) => w.value))
    expect(answers.map((r) => r.status)).toEqual([201, 201, 201, 409, 201])
    expect(db.inTransaction).toBe(false)
    // A new connection on the file (as after a restart) finds each acknowledged write, and not the refused one.
    const after = new Database(filename, { readonly: true })
    const emails = (after.prepare("SELECT data FROM records JOIN spaces USING (space) WHERE collection = 'customers'").all() as Array<{ data: string }>).map((r) => JSON.parse(r.data).email)
    after.close()
    expect(emails.sort()).toEqual(["a@example.com", "g0@example.com", "g1@example.com", "g2@example.com", "g3@example.com", "taken@example.com"])
  })

  it("while the open group holds writes, a read outside a write transaction answers at once", async () => {
    const { control, request, committed } = await setUp()
    const kept = await settled(control, request("POST", `${V}/customers`, individual({ email: "kept@example.com" })))
    const first = request("POST", `${V}/customers`, individual({ email: "a@example.com" }))
    await until(() => control.pending.length === 1)
    const write = tracked(request("POST", `${V}/customers`, individual({ email: "g0@example.com" })))
    await until(() => committed("g") === 1)
    expect((await request("GET", `${V}/customers/${kept.body.id}`)).status).toBe(200)
    expect((await request("GET", `${V}/customers`)).status).toBe(200)
    expect(write.settled).toBe(false)
    control.settle(true)
    expect((await first).status).toBe(201)
    await until(() => control.pending.length === 1)
    control.settle(true)
    expect((await write.value).status).toBe(201)
  })

  it("a group whose COMMIT fails answers every request in it 503 and keeps none of it; later writes 503, reads answer", async () => {
    const { db, control, request, committed } = await setUp()
    // A deferred foreign key is checked at COMMIT: a violation left in the group's transaction fails it.
    db.exec("CREATE TABLE zz_parent (id TEXT PRIMARY KEY); CREATE TABLE zz_child (p TEXT REFERENCES zz_parent (id) DEFERRABLE INITIALLY DEFERRED)")
    const kept = await settled(control, request("POST", `${V}/customers`, individual({ email: "kept@example.com" })))
    const first = request("POST", `${V}/customers`, individual({ email: "a@example.com" }))
    await until(() => control.pending.length === 1)
    const lost = Array.from({ length: 3 }, (_, i) => request("POST", `${V}/customers`, individual({ email: `lost${i}@example.com` })))
    await until(() => committed("lost") === 3)
    // A read meanwhile sees the group's writes (#481), and the read cache may keep one (#485).
    const seen = (await request("GET", `${V}/customers`)).body.data.find((c: { email: string }) => c.email === "lost0@example.com")
    expect((await request("GET", `${V}/customers/${seen.id}`)).status).toBe(200)
    db.prepare("INSERT INTO zz_child (p) VALUES ('nobody')").run()
    control.settle(true)
    expect((await first).status).toBe(201)
    for (const r of await Promise.all(lost)) expect(r.body).toEqual({ status: 503, code: "SERVICE_UNAVAILABLE", message: expect.any(String), details: {} })
    expect(committed("lost")).toBe(0)
    expect(db.inTransaction).toBe(false)
    expect((await request("POST", `${V}/customers`, individual({ email: "later@example.com" }))).status).toBe(503)
    expect((await request("GET", `${V}/customers/${kept.body.id}`)).status).toBe(200)
    // Nothing of the rolled-back group is served, from SQLite or from the cache.
    expect((await request("GET", `${V}/customers/${seen.id}`)).status).toBe(404)
    expect(control.pending).toHaveLength(0)
  })

  it("a group SQLite rolls back by itself (SQLITE_FULL) answers every request in it 503 and keeps none of it", async () => {
    const { db, control, request, committed } = await setUp()
    const first = request("POST", `${V}/customers`, individual({ email: "a@example.com" }))
    await until(() => control.pending.length === 1)
    const early = tracked(request("POST", `${V}/customers`, individual({ email: "x-early@example.com" })))
    await until(() => committed("x-early") === 1)
    // No page may be added: the next creations fail with SQLITE_FULL, which rolls the whole transaction back.
    db.pragma(`max_page_count = ${db.pragma("page_count", { simple: true }) as number}`)
    const rest = Array.from({ length: 10 }, (_, i) => request("POST", `${V}/customers`, individual({ email: `x${i}@example.com` })))
    for (const r of await Promise.all(rest)) expect(r.status).toBe(503)
    expect((await early.value).status).toBe(503)
    expect(committed("x")).toBe(0)
    control.settle(true)
    expect((await first).status).toBe(201)
  })

  it("holds no transaction, and no lock, while idle: another connection writes at once", async () => {
    const { db, control, request, filename } = await setUp()
    const other = new Database(filename)
    other.pragma("busy_timeout = 0")
    const first = request("POST", `${V}/customers`, individual({ email: "a@example.com" }))
    await until(() => control.pending.length === 1)
    const second = request("POST", `${V}/customers`, individual({ email: "b@example.com" }))
    await until(() => db.inTransaction)
    // While a group gathers (at most until the sync in flight ends) the file's write lock is ours.
    expect(() => other.exec("BEGIN IMMEDIATE")).toThrow(/SQLITE_BUSY|locked/)
    control.settle(true)
    await first
    await until(() => control.pending.length === 1)
    control.settle(true)
    expect((await second).status).toBe(201)
    expect(db.inTransaction).toBe(false)
    other.exec("BEGIN IMMEDIATE; CREATE TABLE zz_other (x); COMMIT")
    other.close()
  })

  it("a scope's number assigned by a write of the open group is kept once the group commits; one assigned by a rolled-back write in it is freed", async () => {
    const { Docs, dbA, control, a, b, run, ids, seeded } = await twoStoresOneSyncInFlight()
    // Meanwhile the group gathers: "x" gets a number in a released savepoint, "y" in one that rolls back.
    await run(a.put(Docs, "x", { id: "x1" }))
    expect(await run(Effect.flip(a.transaction(Effect.zipRight(a.put(Docs, "y", { id: "y1" }), Effect.fail("boom" as const)))))).toBe("boom")
    expect(dbA.inTransaction).toBe(true)
    expect([await ids(a, "x"), await ids(a, "y")]).toEqual([["x1"], []])
    control.settle(true)
    await seeded
    // The sync ended: the group committed before the next sync started.
    await until(() => control.pending.length === 1)
    expect(dbA.inTransaction).toBe(false)
    control.settle(true)
    // Another process may now be given the number the rolled-back write freed, for another scope.
    await run(b.put(Docs, "z", { id: "z1" }))
    expect([await ids(a, "x"), await ids(a, "y"), await ids(a, "z"), await ids(b, "x")]).toEqual([["x1"], [], ["z1"], ["x1"]])
  })

  it("a scope's number assigned by a write of a group that is then lost is not kept", async () => {
    const { Docs, dbA, control, a, b, run, ids, seeded } = await twoStoresOneSyncInFlight()
    dbA.exec("CREATE TABLE zz_parent (id TEXT PRIMARY KEY); CREATE TABLE zz_child (p TEXT REFERENCES zz_parent (id) DEFERRABLE INITIALLY DEFERRED)")
    const lost = run(Effect.either(Effect.zipRight(a.put(Docs, "x", { id: "x1" }), awaitDurable)))
    await until(() => dbA.inTransaction)
    expect(await ids(a, "x")).toEqual(["x1"])
    // A deferred foreign key left in the group's transaction makes its COMMIT fail.
    dbA.prepare("INSERT INTO zz_child (p) VALUES ('nobody')").run()
    control.settle(true)
    await seeded
    expect((await lost)._tag).toBe("Left")
    expect(dbA.inTransaction).toBe(false)
    await run(b.put(Docs, "z", { id: "z1" }))
    expect([await ids(a, "x"), await ids(a, "z"), await ids(b, "x")]).toEqual([[], ["z1"], []])
  })
})

/**
 * Two stores on one new file, as two processes: `a` with the test's log sync, whose first write
 * (`seeded`) waits for a sync left in flight until the test settles it, so a group gathers; `b`
 * plain.
 */
const twoStoresOneSyncInFlight = async () => {
  const Docs = collection<{ id: string }>()("docs", (d) => d.id)
  const filename = join(mkdtempSync(join(tmpdir(), "tessera-group-")), "g.sqlite")
  const dbA = openDatabase({ filename })
  const control = controlledSync(`${filename}-wal`)
  const a = makeSqliteStore(dbA, { groupCommit: new GroupCommit(control.sync) })
  const b = makeSqliteStore(openDatabase({ filename }))
  const run = <X, E>(e: Effect.Effect<X, E>) => Effect.runPromise(e)
  const ids = async (store: typeof a, scope: string) => (await run(store.list(Docs, scope, { limit: 10 }))).items.map((n) => n.id)
  const seeded = run(Effect.zipRight(a.put(Docs, "seed", { id: "s" }), awaitDurable))
  await until(() => control.pending.length === 1)
  return { Docs, dbA, control, a, b, run, ids, seeded }
}

/** Runs a request whose group is alone: settles its sync and answers it. */
const settled = async <A>(control: ReturnType<typeof controlledSync>, p: Promise<A>): Promise<A> => {
  await until(() => control.pending.length === 1)
  control.settle(true)
  return p
}
