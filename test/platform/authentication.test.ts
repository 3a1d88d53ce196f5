import { describe, expect, it } from "vitest"
import { Effect } from "effect"
import { AUTH_FAILURE_LIMIT, makeEngine, Platforms, SERVER_SCOPE, Store } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { SqliteStore } from "@tessera/adapter-sqlite"
import { toFetchHandler } from "@tessera/adapter-http"
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET, DEFAULT_SECRET_HASH } from "tessera"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const V = "/2025-10-13"
const basicOf = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`

describe("platform credentials", () => {
  it("the secret is stored as a salted scrypt hash, never as itself or a bare digest", async () => {
    const engine = makeEngine({ store: MemoryStore.layer })
    await engine.platform({ clientId: "alpha", clientSecret: "s3cret-alpha" })
    await engine.platform({ clientId: "beta", clientSecret: "s3cret-alpha" })
    const stored = await engine.run(Effect.flatMap(Store, (s) => s.list(Platforms, SERVER_SCOPE, { limit: 10 })))
    const hashes = stored.items.map((p) => p.secretHash)
    for (const h of hashes) expect(h).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/)
    // The same secret under two salts: two different hashes.
    expect(hashes[0]).not.toBe(hashes[1])
    expect(JSON.stringify(stored.items)).not.toMatch(/s3cret-alpha|secretSha256/)
    await engine.dispose()
  })

  it("repeated wrong secrets for a client id answer 429 with Retry-After; the right secret still answers 200", async () => {
    const engine = makeEngine({ store: MemoryStore.layer })
    await engine.platform({ clientId: "alpha", clientSecret: "right" })
    const handler = toFetchHandler(engine)
    const get = (auth: string) => handler(new Request(`http://host${V}/customers`, { headers: { authorization: auth } }))
    expect((await get(basicOf("alpha", "right"))).status).toBe(200)
    const wrong: Array<number> = []
    for (let i = 0; i < AUTH_FAILURE_LIMIT; i++) wrong.push((await get(basicOf("alpha", `wrong-${i}`))).status)
    expect(wrong).toEqual(Array(AUTH_FAILURE_LIMIT).fill(401))
    const limited = await get(basicOf("alpha", "wrong-again"))
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0)
    expect(await limited.json()).toMatchObject({ status: 429, code: "RATE_LIMITED", details: { reason: "TOO_MANY_FAILED_AUTHENTICATIONS" } })
    // The right secret is not slowed down by someone else's guesses.
    expect((await get(basicOf("alpha", "right"))).status).toBe(200)
    // Another client id is not limited by alpha's failures; an unknown id is refused with 401.
    expect((await get(basicOf("nobody", "x"))).status).toBe(401)
    await engine.dispose()
  })

  it("once the right secret has been accepted, near misses of it are still refused", async () => {
    const engine = makeEngine({ store: MemoryStore.layer })
    await engine.platform({ clientId: "alpha", clientSecret: "right-secret" })
    const handler = toFetchHandler(engine)
    const get = (secret: string) => handler(new Request(`http://host${V}/customers`, { headers: { authorization: basicOf("alpha", secret) } }))
    expect((await get("right-secret")).status).toBe(200)
    // At most AUTH_FAILURE_LIMIT, so each answer is the comparison's, not the rate limit's.
    const misses = ["right-secre", "right-secret!", "right-secreT", "", "right-secretright-secret"]
    expect(misses.length).toBeLessThanOrEqual(AUTH_FAILURE_LIMIT)
    const statuses: Array<number> = []
    for (const m of misses) statuses.push((await get(m)).status)
    expect(statuses).toEqual(misses.map(() => 401))
    expect((await get("right-secret")).status).toBe(200)
    await engine.dispose()
  })

  it("a restart with a changed secret refuses the old one", async () => {
    const engine = makeEngine({ store: MemoryStore.layer })
    await engine.platform({ clientId: "alpha", clientSecret: "first" })
    const handler = toFetchHandler(engine)
    const get = (secret: string) => handler(new Request(`http://host${V}/customers`, { headers: { authorization: basicOf("alpha", secret) } }))
    expect((await get("first")).status).toBe(200)
    await engine.platform({ clientId: "alpha", clientSecret: "second" })
    expect((await get("first")).status).toBe(401)
    expect((await get("second")).status).toBe(200)
    await engine.dispose()
  })

  it("the CLI's precomputed hash of its default secret is stored as given, and another process verifies the secret against it", async () => {
    const filename = join(mkdtempSync(join(tmpdir(), "tessera-default-secret-")), "store.sqlite")
    const input = { clientId: DEFAULT_CLIENT_ID, clientSecret: DEFAULT_CLIENT_SECRET, secretHash: DEFAULT_SECRET_HASH }
    const first = makeEngine({ store: SqliteStore.layer({ filename }) })
    expect((await first.platform(input)).secretHash).toBe(DEFAULT_SECRET_HASH)
    await first.dispose()
    // A second engine on the file has no memory of the secret: it checks it with scrypt against the stored hash.
    const second = makeEngine({ store: SqliteStore.layer({ filename }) })
    const handler = toFetchHandler(second)
    const get = (secret: string) => handler(new Request(`http://host${V}/customers`, { headers: { authorization: basicOf(DEFAULT_CLIENT_ID, secret) } }))
    expect((await get(DEFAULT_CLIENT_SECRET)).status).toBe(200)
    expect((await get("sandbox-client-secreT")).status).toBe(401)
    // A restart with the default secret keeps the stored hash; a changed secret replaces it.
    expect((await second.platform(input)).secretHash).toBe(DEFAULT_SECRET_HASH)
    expect((await second.platform({ clientId: DEFAULT_CLIENT_ID, clientSecret: "other" })).secretHash).not.toBe(DEFAULT_SECRET_HASH)
    expect((await get(DEFAULT_CLIENT_SECRET)).status).toBe(401)
    await second.dispose()
  })
})
