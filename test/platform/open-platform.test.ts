// A server that answers before its secret's scrypt hash exists (DECISIONS #495): what a user
// notices is that the configured secret works at once and nothing else does, before, during and
// after the hash is settled (on every store, requests racing the settle included), that the
// database ends up with a hash that verifies the secret (never the secret, never for long a
// placeholder), and that storing it changes nothing else.
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { Engine, makeEngine, PENDING_SECRET_HASH, Platforms, SERVER_SCOPE, Store } from "@tessera/core"
import { verifySecretHash } from "@tessera/core/crypto"
import { SqliteStore } from "@tessera/adapter-sqlite"
import { MemoryStore } from "@tessera/adapter-memory"
import { toFetchHandler } from "@tessera/adapter-http"
import { freshSchema, postgresLayer } from "../support/postgres.ts"

const V = "/2025-10-13"
const basicOf = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`
const newFile = () => join(mkdtempSync(join(tmpdir(), "tessera-open-platform-")), "store.sqlite")
const engineOn = (filename: string) => makeEngine({ store: SqliteStore.layer({ filename }) })

const statusWith = async (engine: Engine, clientId: string, secret: string) =>
  (await toFetchHandler(engine)(new Request(`http://host${V}/customers`, { headers: { authorization: basicOf(clientId, secret) } }))).status

const storedPlatforms = (engine: Engine) => engine.run(Effect.flatMap(Store, (s) => s.list(Platforms, SERVER_SCOPE, { limit: 10 }))).then((page) => page.items)

describe("a platform opened before its secret's hash", () => {
  it("answers the configured secret at once, refuses others, and stores a hash that verifies the secret", async () => {
    const filename = newFile()
    const engine = engineOn(filename)
    const { platform, settleSecret } = await engine.openPlatform({ clientId: "alpha", clientSecret: "alpha-secret" })
    expect(platform.secretHash).toBe(PENDING_SECRET_HASH)
    expect(settleSecret).toBeTypeOf("function")
    expect(await statusWith(engine, "alpha", "alpha-secret")).toBe(200)
    expect(await statusWith(engine, "alpha", "alpha-secreT")).toBe(401)

    // Another process on the file, before the hash is stored: the placeholder verifies nothing.
    const peer = engineOn(filename)
    expect(await statusWith(peer, "alpha", "alpha-secret")).toBe(401)
    await peer.dispose()

    await settleSecret!()
    const [stored] = await storedPlatforms(engine)
    expect(stored!.secretHash).toMatch(/^scrypt\$16384\$8\$1\$/)
    expect(await verifySecretHash("alpha-secret", stored!.secretHash)).toBe(true)
    expect(JSON.stringify(stored)).not.toContain("alpha-secret")
    expect(await statusWith(engine, "alpha", "alpha-secret")).toBe(200)
    await engine.dispose()

    // A restart with the same secret: accepted at once, and settling keeps the stored hash.
    const restarted = engineOn(filename)
    const reopened = await restarted.openPlatform({ clientId: "alpha", clientSecret: "alpha-secret" })
    expect(reopened.platform.secretHash).toBe(stored!.secretHash)
    expect(await statusWith(restarted, "alpha", "alpha-secret")).toBe(200)
    await reopened.settleSecret!()
    expect((await storedPlatforms(restarted))[0]!.secretHash).toBe(stored!.secretHash)
    expect(await statusWith(restarted, "alpha", "alpha-secret")).toBe(200)
    expect(await statusWith(restarted, "alpha", "alpha-secreT")).toBe(401)
    await restarted.dispose()
  })

  it("storing the hash changes nothing else: a configuration changed meanwhile stays", async () => {
    const engine = engineOn(newFile())
    const { settleSecret } = await engine.openPlatform({ clientId: "alpha", clientSecret: "alpha-secret", webhookUrl: "https://start.example/hooks" })
    const patched = await toFetchHandler(engine)(
      new Request(`http://host${V}/config`, {
        method: "PATCH",
        headers: { authorization: basicOf("alpha", "alpha-secret"), "content-type": "application/json" },
        body: JSON.stringify({ webhookEndpoint: "https://later.example/hooks" })
      })
    )
    expect(patched.status).toBe(200)
    await settleSecret!()
    const [stored] = await storedPlatforms(engine)
    expect(stored!.webhookUrl).toBe("https://later.example/hooks")
    expect(await verifySecretHash("alpha-secret", stored!.secretHash)).toBe(true)
    await engine.dispose()
  })

  it("a platform left pending (stopped before its hash was stored) gets its hash at the next open", async () => {
    const filename = newFile()
    const first = engineOn(filename)
    await first.openPlatform({ clientId: "alpha", clientSecret: "alpha-secret" })
    await first.dispose()
    const second = engineOn(filename)
    const { platform, settleSecret } = await second.openPlatform({ clientId: "alpha", clientSecret: "alpha-secret" })
    expect(platform.secretHash).toBe(PENDING_SECRET_HASH)
    await settleSecret!()
    const [stored] = await storedPlatforms(second)
    expect(await verifySecretHash("alpha-secret", stored!.secretHash)).toBe(true)
    // One platform, its USD account provisioned once.
    expect((await storedPlatforms(second)).length).toBe(1)
    await second.dispose()
  })

  it("an existing platform opened with another secret accepts only the new one at once, and settling stores its hash", async () => {
    const filename = newFile()
    const first = engineOn(filename)
    const old = await first.platform({ clientId: "alpha", clientSecret: "old-secret" })
    await first.dispose()
    const second = engineOn(filename)
    const { platform, settleSecret } = await second.openPlatform({ clientId: "alpha", clientSecret: "new-secret" })
    // Not settled yet: the stored hash is still the old secret's, yet this engine takes only the new one.
    expect(platform.secretHash).toBe(old.secretHash)
    expect(await statusWith(second, "alpha", "new-secret")).toBe(200)
    expect(await statusWith(second, "alpha", "old-secret")).toBe(401)
    expect(await statusWith(second, "alpha", "new-secret")).toBe(200)
    await settleSecret!()
    const [stored] = await storedPlatforms(second)
    expect(await verifySecretHash("new-secret", stored!.secretHash)).toBe(true)
    expect(await verifySecretHash("old-secret", stored!.secretHash)).toBe(false)
    expect(await statusWith(second, "alpha", "new-secret")).toBe(200)
    expect(await statusWith(second, "alpha", "old-secret")).toBe(401)
    await second.dispose()
  })

  it("a given hash (the CLI's default secret's) is stored as given, with nothing left to store", async () => {
    const engine = engineOn(newFile())
    const other = engineOn(newFile())
    const given = await other.platform({ clientId: "x", clientSecret: "given-secret" })
    await other.dispose()
    const { platform, settleSecret } = await engine.openPlatform({ clientId: "alpha", clientSecret: "given-secret", secretHash: given.secretHash })
    expect(settleSecret).toBeUndefined()
    expect(platform.secretHash).toBe(given.secretHash)
    await engine.dispose()
  })

  // Each request is its own macrotask, as over HTTP, so the settle's commit lands between them.
  const racing = async (engine: Engine, settle: Promise<void>) => {
    const seen = new Set<string>()
    let settled = false
    void settle.then(() => (settled = true))
    const worker = async () => {
      while (!settled) {
        await new Promise((r) => setImmediate(r))
        seen.add(`new=${await statusWith(engine, "alpha", "new-secret")}`)
      }
    }
    await Promise.all([worker(), worker(), worker(), settle])
    // Right after: a record cached while the settle ran is still in the holder cache.
    for (let i = 0; i < 3; i++) seen.add(`after: new=${await statusWith(engine, "alpha", "new-secret")} old=${await statusWith(engine, "alpha", "old-secret")}`)
    return [...seen].sort()
  }
  const stores = [
    ["memory", () => MemoryStore.layer],
    ["SQLite", () => SqliteStore.layer({ filename: newFile() })],
    ["PostgreSQL", () => postgresLayer(freshSchema("open_platform"))]
  ] as const
  for (const [name, layerOf] of stores)
    it(`${name}: requests racing the settle of a changed secret see only the new one accepted, during and after`, async () => {
      const layer = layerOf()
      const first = await Engine.make({ store: layer })
      await first.platform({ clientId: "alpha", clientSecret: "old-secret" })
      const engine = name === "memory" ? first : await Engine.make({ store: layer })
      if (engine !== first) await first.dispose()
      const { settleSecret } = await engine.openPlatform({ clientId: "alpha", clientSecret: "new-secret" })
      expect(await racing(engine, settleSecret!())).toEqual(["after: new=200 old=401", "new=200"])
      const [stored] = await storedPlatforms(engine)
      expect(await verifySecretHash("new-secret", stored!.secretHash)).toBe(true)
      await engine.dispose()
    }, 30_000)
})
