import { spawn } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import Database from "better-sqlite3"
import { Effect, Option } from "effect"
import { collection } from "@tessera/core"
import { makeSqliteStore, migrations, openDatabase } from "@tessera/adapter-sqlite"
import { individual, startTestServer } from "../support/server.ts"
import { repoRoot } from "../support/paths.ts"

const V = "/2025-10-13"

describe("SQLite durability", () => {
  it("keeps customers across a server restart on the same file", async () => {
    const filename = join(mkdtempSync(join(tmpdir(), "tessera-restart-")), "db.sqlite")
    const first = await startTestServer("sqlite", { filename })
    const created = (await first.request("POST", `${V}/customers`, { body: individual({ fullName: "Persist 001" }) })).body
    await first.close()
    const second = await startTestServer("sqlite", { filename })
    try {
      const got = await second.request("GET", `${V}/customers/${created.id}`)
      expect(got.status).toBe(200)
      expect(got.body).toEqual(created)
    } finally {
      await second.close()
    }
  })

  it("opens with WAL, synchronous=NORMAL (group commit syncs the log), a busy timeout and every migration applied", () => {
    const filename = join(mkdtempSync(join(tmpdir(), "tessera-pragmas-")), "db.sqlite")
    const db = openDatabase({ filename })
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal")
    expect(db.pragma("synchronous", { simple: true })).toBe(1)
    expect(Number(db.pragma("busy_timeout", { simple: true }))).toBeGreaterThan(0)
    const versions = (db.prepare("SELECT version FROM schema_migrations ORDER BY version").all() as Array<{ version: number }>).map((r) => r.version)
    expect(versions).toEqual(migrations.map((m) => m.version))
    db.close()
    // Re-opening applies nothing twice.
    const again = openDatabase({ filename })
    expect((again.prepare("SELECT count(*) AS n FROM schema_migrations").get() as { n: number }).n).toBe(migrations.length)
    again.close()
  })

  it("two processes incrementing one record through transactions lose no update", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tessera-2proc-"))
    const filename = join(dir, "shared.sqlite")
    const Counter = collection<{ id: string; n: number }>()("counters", (c) => c.id)
    const store = makeSqliteStore(openDatabase({ filename }))
    await Effect.runPromise(store.put(Counter, "p", { id: "c", n: 0 }))
    const script = join(repoRoot, "test/fixtures/sqlite-counter-worker.ts")
    const run = () =>
      new Promise<number>((resolve, reject) => {
        const child = spawn(process.execPath, ["--import", "tsx", script, filename, "200"], { cwd: join(repoRoot, "test"), stdio: "inherit" })
        child.on("exit", (code) => resolve(code ?? -1))
        child.on("error", reject)
      })
    const codes = await Promise.all([run(), run()])
    expect(codes).toEqual([0, 0])
    const n = await Effect.runPromise(store.get(Counter, "p", "c"))
    expect(Option.map(n, (c) => c.n)).toEqual(Option.some(400))
  }, 60_000)

  it("a raw second connection sees only committed data", () => {
    const filename = join(mkdtempSync(join(tmpdir(), "tessera-iso-")), "db.sqlite")
    const Docs = collection<{ id: string }>()("docs", (d) => d.id)
    const store = makeSqliteStore(openDatabase({ filename }))
    const reader = new Database(filename, { readonly: true })
    const count = () => (reader.prepare("SELECT count(*) AS n FROM records").get() as { n: number }).n
    const before = count()
    const exit = Effect.runSyncExit(
      store.transaction(
        Effect.gen(function* () {
          yield* store.put(Docs, "p", { id: "a" })
          expect(count()).toBe(before)
          return yield* Effect.fail("abort")
        })
      )
    )
    expect(exit._tag).toBe("Failure")
    expect(count()).toBe(before)
    reader.close()
  })

  it("a read by id never serves a stale record after another connection or a rollback changed it", () => {
    const filename = join(mkdtempSync(join(tmpdir(), "tessera-cache-")), "db.sqlite")
    const Docs = collection<{ id: string; v: number }>()("docs", (d) => d.id)
    const a = makeSqliteStore(openDatabase({ filename }))
    const b = makeSqliteStore(openDatabase({ filename }))
    const read = (s: typeof a) => Option.map(Effect.runSync(s.get(Docs, "p", "x")), (d) => d.v)
    Effect.runSync(a.put(Docs, "p", { id: "x", v: 1 }))
    expect(read(a)).toEqual(Option.some(1))
    expect(read(a)).toEqual(Option.some(1)) // now served from a's cache
    Effect.runSync(b.put(Docs, "p", { id: "x", v: 2 })) // another connection commits
    expect(read(a)).toEqual(Option.some(2))
    Effect.runSync(b.remove(Docs, "p", "x"))
    expect(read(a)).toEqual(Option.none())
    Effect.runSync(a.put(Docs, "p", { id: "x", v: 3 }))
    expect(read(a)).toEqual(Option.some(3))
    // A write rolled back inside this connection leaves the committed value readable.
    const exit = Effect.runSyncExit(
      a.transaction(
        Effect.gen(function* () {
          yield* a.put(Docs, "p", { id: "x", v: 4 })
          expect(read(a)).toEqual(Option.some(4)) // the transaction sees its own write
          return yield* Effect.fail("abort")
        })
      )
    )
    expect(exit._tag).toBe("Failure")
    expect(read(a)).toEqual(Option.some(3))
    expect(read(b)).toEqual(Option.some(3))
  })
})
