import { spawn } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { Effect } from "effect"
import { DueSteps, Engine, Outbox, SERVER_SCOPE, Store, transferOutcome, Transactions } from "@tessera/core"
import { SqliteStore } from "@tessera/adapter-sqlite"
import { repoRoot } from "../support/paths.ts"
import { start } from "./support.ts"

const N = 600

const worker = (filename: string, startAt: number, mode: "forward" | "reverse") =>
  new Promise<number>((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", join(repoRoot, "test/fixtures/due-runner-worker.ts"), filename, String(startAt), mode], {
      cwd: join(repoRoot, "test"),
      stdio: ["ignore", "pipe", "inherit"]
    })
    let out = ""
    child.stdout.on("data", (d: Buffer) => (out += d.toString()))
    child.on("exit", (code) => (code === 0 ? resolve(Number(out.trim())) : reject(new Error(`worker exited ${code}`))))
    child.on("error", reject)
  })

describe("due outcome steps with two processes on one SQLite file", () => {
  it("each step is applied exactly once: its webhook published once, the applied counts summing to the steps", async () => {
    const filename = join(mkdtempSync(join(tmpdir(), "tessera-due-2proc-")), "shared.sqlite")
    // Created on a virtual clock in the past: to the workers' real clock every 30 s step is due.
    const seeding = await Engine.make({ store: SqliteStore.layer({ filename }), clock: "virtual", clockStartMs: Date.parse("2020-01-01T00:00:00Z") })
    const platform = await seeding.platform({ clientId: "two", clientSecret: "two-secret-0123456789" })
    for (let i = 0; i < N; i++) await start(seeding, platform, transferOutcome("OUTGOING", "005"))
    await seeding.dispose()

    const startAt = Date.now() + 4000
    const applied = await Promise.all([worker(filename, startAt, "forward"), worker(filename, startAt, "reverse")])
    expect(applied[0]! + applied[1]!).toBe(N)

    const engine = await Engine.make({ store: SqliteStore.layer({ filename }), clock: "real" })
    const { statuses, failedEvents, due } = await engine.run(
      Effect.gen(function* () {
        const store = yield* Store
        const all = (yield* store.list(Transactions, platform.id, { limit: N + 1 })).items
        const failed = (yield* store.list(Outbox, platform.id, { where: [{ index: "type", eq: "OUTGOING_PAYMENT.FAILED" }], limit: 2 * N })).items
        const left = (yield* store.list(DueSteps, SERVER_SCOPE, { limit: 1 })).totalCount
        return { statuses: new Set(all.map((t) => t.status)), failedEvents: failed.map((e) => e.resourceId), due: left }
      })
    )
    expect([...statuses]).toEqual(["FAILED"])
    expect(failedEvents.length).toBe(N)
    expect(new Set(failedEvents).size).toBe(N)
    expect(due).toBe(0)
    await engine.dispose()
  }, 60_000)
})
