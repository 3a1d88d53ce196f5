import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { Effect, Layer, Option } from "effect"
import { collection, makeEngine, Store, StoreError } from "@tessera/core"
import { GroupCommit, groupCommitOf, makeSqliteStore, openDatabase, walFileSync, type WalSync } from "@tessera/adapter-sqlite"
import { serve, type RunningServer } from "@tessera/adapter-http"
import { basic, CLIENT_ID, CLIENT_SECRET, individual } from "../support/server.ts"
import { checkResponse, operationFor } from "../support/openapi-checker.ts"

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
  return { db, engine, control, request, committed }
}

/** Waits (event-loop turns, no clock) until `cond` holds. */
const until = async (cond: () => boolean) => {
  for (let i = 0; i < 10_000 && !cond(); i++) await new Promise((r) => setImmediate(r))
  expect(cond()).toBe(true)
}

const tracked = <A>(p: Promise<A>) => {
  const t = { settled: false, value: p }
  p.then(
    () => (t.settled = true),
    () => (t.settled = true)
  )
  return t
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
})
