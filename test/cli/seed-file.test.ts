import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { expectOneLineRefusal, runCli, startCli, tempDir } from "./run-cli.ts"

const auth = `Basic ${Buffer.from("sandbox-client-id:sandbox-client-secret").toString("base64")}`
const baseOf = (banner: string) => /listening on (\S+)/.exec(banner)![1]!
const call = async (base: string, method: string, path: string, body?: unknown) => {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: auth, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: res.status, body: (await res.json()) as any }
}

describe("tessera serve --seed-file: a prepared sandbox shared as a file", () => {
  it("a state exported from one server is the state of the next, on SQLite, replacing what the file held", async () => {
    const dir = tempDir()
    const seed = join(dir, "seed.json")
    const first = await startCli(["serve", "--port", "0", "--db", ":memory:"])
    let exported: any
    try {
      const base = baseOf(first.banner)
      const ada = await call(base, "POST", "/customers", { customerType: "INDIVIDUAL", fullName: "Ada Seeded", platformCustomerId: "ada-1" })
      expect(ada.status).toBe(201)
      exported = (await call(base, "GET", "/sandbox/state")).body
      writeFileSync(seed, JSON.stringify(exported))
    } finally {
      await first.stop()
    }

    const db = join(dir, "team.sqlite")
    // The database already holds something else: the seed replaces it.
    const before = await startCli(["serve", "--port", "0", "--db", db])
    try {
      expect((await call(baseOf(before.banner), "POST", "/customers", { customerType: "INDIVIDUAL", fullName: "Not In The Seed" })).status).toBe(201)
    } finally {
      await before.stop()
    }
    const second = await startCli(["serve", "--port", "0", "--db", db, "--seed-file", seed])
    try {
      expect(second.banner).toContain(`seeded from:   ${seed}`)
      const base = baseOf(second.banner)
      const list = (await call(base, "GET", "/customers")).body
      expect(list.data.map((c: any) => c.fullName)).toEqual(["Ada Seeded"])
      const again = (await call(base, "GET", "/sandbox/state")).body
      expect({ ...again, exportedAt: undefined }).toEqual({ ...exported, exportedAt: undefined })
    } finally {
      await second.stop()
    }
  })

  it("from TESSERA_SEED_FILE too", async () => {
    const seed = join(tempDir(), "seed.json")
    writeFileSync(seed, JSON.stringify({ format: "tessera.state", version: 1, collections: {} }))
    const cli = await startCli(["serve", "--port", "0", "--db", ":memory:"], { TESSERA_SEED_FILE: seed })
    try {
      expect((await call(baseOf(cli.banner), "GET", "/customers")).body.data).toEqual([])
    } finally {
      await cli.stop()
    }
  })

  it("a start that fails on a busy port leaves the database as it was: the seed is imported only once the port is bound", async () => {
    const dir = tempDir()
    const db = join(dir, "live.sqlite")
    const seed = join(dir, "empty.json")
    writeFileSync(seed, JSON.stringify({ format: "tessera.state", version: 1, collections: {} }))
    const live = await startCli(["serve", "--port", "0", "--db", db])
    try {
      const base = baseOf(live.banner)
      expect((await call(base, "POST", "/customers", { customerType: "INDIVIDUAL", fullName: "Still Here" })).status).toBe(201)
      const port = /:(\d+)\//.exec(base)![1]!
      const second = await runCli(["serve", "--port", port, "--db", db, "--seed-file", seed])
      expectOneLineRefusal(second, /port \d+ is already in use/)
      expect((await call(base, "GET", "/customers")).body.data.map((c: any) => c.fullName)).toEqual(["Still Here"])
    } finally {
      await live.stop()
    }
  })

  describe.concurrent("a seed file that cannot be loaded: one line naming the file and the fix, exit 2, the database untouched", () => {
    const dir = tempDir()
    const write = (name: string, text: string) => {
      writeFileSync(join(dir, name), text)
      return join(dir, name)
    }
    it.each([
      ["missing", join(dir, "nope.json"), /seed file ".*nope\.json" does not exist; pass a document saved from GET/],
      ["a directory", dir, /seed file ".*" is a directory;/],
      ["not JSON", write("broken.json", "{ not json"), /seed file ".*broken\.json" is not JSON;/],
      ["the wrong format", write("wrong.json", JSON.stringify({ format: "other", version: 1, collections: {} })), /is not a state document Tessera can load: format must be "tessera\.state"/],
      [
        "a record without an id, and more",
        write("bad.json", JSON.stringify({ format: "tessera.state", version: 1, collections: { customers: [{}, 3] } })),
        /is not a state document Tessera can load: collections\.customers\.0\..* \(and \d+ more\)/
      ]
    ] as const)("%s", async (_, file, pattern) => {
      expectOneLineRefusal(await runCli(["serve", "--port", "0", "--db", ":memory:", "--seed-file", file]), pattern)
    })
  })
})
