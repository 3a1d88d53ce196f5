import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { basic, CLIENT_ID, CLIENT_SECRET, startTestServer, type StoreKind, type TestServer } from "../support/server.ts"

const V = "/2025-10-13"

const tokenAuth = (t: { clientId: string; clientSecret: string }) => basic(t.clientId, t.clientSecret)

describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("API tokens over HTTP (%s store)", (kind) => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer(kind)
  })
  afterAll(async () => t.close())

  const create = async (name: string, permissions: ReadonlyArray<string>, auth?: string) => {
    const r = await t.request("POST", `${V}/tokens`, { body: { name, permissions }, ...(auth === undefined ? {} : { auth }) })
    expect(r.status).toBe(201)
    return r.body
  }

  it("creates a token whose secret is shown once; it works as Basic credentials until deleted, then 401", async () => {
    const token = await create("Sandbox full", ["VIEW", "TRANSACT", "MANAGE"])
    expect(token.id).toMatch(/^Token:[0-9a-f-]{36}$/)
    expect(token.clientId).toMatch(/^[0-9a-f]{32}$/)
    expect(token.clientSecret).toMatch(/^[0-9a-f]{64}$/)
    expect(token).toMatchObject({ name: "Sandbox full", permissions: ["VIEW", "TRANSACT", "MANAGE"] })
    const got = await t.request("GET", `${V}/tokens/${token.id}`)
    expect(got.status).toBe(200)
    const { clientSecret: _shownOnce, ...withoutSecret } = token
    expect(got.body).toEqual(withoutSecret)

    const asToken = await t.request("GET", `${V}/customers`, { auth: tokenAuth(token) })
    expect(asToken.status).toBe(200)
    // What the token creates belongs to the platform: the platform's own credentials see it.
    const made = await t.request("POST", `${V}/customers`, { body: { customerType: "INDIVIDUAL", fullName: "Made By Token" }, auth: tokenAuth(token) })
    expect(made.status).toBe(201)
    expect((await t.request("GET", `${V}/customers/${made.body.id}`)).status).toBe(200)
    expect((await t.request("GET", `${V}/customers`, { auth: tokenAuth({ clientId: token.clientId, clientSecret: "0".repeat(64) }) })).status).toBe(401)

    const deleted = await t.request("DELETE", `${V}/tokens/${token.id}`)
    expect(deleted.status).toBe(204)
    const after = await t.request("GET", `${V}/customers`, { auth: tokenAuth(token) })
    expect(after.status).toBe(401)
    expect(after.body.code).toBe("UNAUTHORIZED")
    expect((await t.request("GET", `${V}/tokens/${token.id}`)).body.code).toBe("TOKEN_NOT_FOUND")
    expect((await t.request("DELETE", `${V}/tokens/${token.id}`)).status).toBe(404)
  })

  it("a VIEW token reads but cannot write: quotes, transfers and customers are 403 FORBIDDEN", async () => {
    const viewer = await create("Read-only", ["VIEW"])
    const auth = tokenAuth(viewer)
    expect((await t.request("GET", `${V}/customers`, { auth })).status).toBe(200)
    expect((await t.request("GET", `${V}/config`, { auth })).status).toBe(200)
    for (const [method, path, body] of [
      ["POST", `${V}/quotes`, {}],
      ["POST", `${V}/quotes/Quote:00000000-0000-4000-8000-000000000000/execute`, {}],
      ["POST", `${V}/transfer-out`, {}],
      ["POST", `${V}/customers`, { customerType: "INDIVIDUAL", fullName: "Nope" }],
      ["PATCH", `${V}/config`, { umaDomain: "viewer.example.com" }],
      ["POST", `${V}/tokens`, { name: "escalate", permissions: ["MANAGE"] }]
    ] as const) {
      const r = await t.request(method, path, { body, auth })
      expect(r.status, `${method} ${path}`).toBe(403)
      expect(r.body).toMatchObject({ code: "FORBIDDEN", details: { permissions: ["VIEW"] } })
    }
    expect((await t.request("GET", `${V}/config`)).body.umaDomain).not.toBe("viewer.example.com")
  })

  it("a TRANSACT token may create quotes (its checks run) but not read without VIEW nor manage", async () => {
    const payer = await create("Payer", ["TRANSACT"])
    const auth = tokenAuth(payer)
    const quote = await t.request("POST", `${V}/quotes`, { body: {}, auth })
    expect(quote.status).toBe(400)
    expect(quote.body.code).toBe("INVALID_INPUT")
    expect((await t.request("GET", `${V}/customers`, { auth })).body).toMatchObject({ code: "FORBIDDEN", details: { requiredPermission: "VIEW" } })
    expect((await t.request("POST", `${V}/customers`, { body: {}, auth })).body.details.requiredPermission).toBe("MANAGE")
  })

  it("authorizing a held quote and the card simulators need TRANSACT; a MANAGE-only token is refused them", async () => {
    const manager = tokenAuth(await create("Manager", ["MANAGE"]))
    const payer = tokenAuth(await create("Payer 2", ["TRANSACT"]))
    const card = "Card:00000000-0000-4000-8000-000000000000"
    const simulators = ["authorization", "clearing", "return", "balance_inquiry", "credit_authorization", "financial_authorization", "financial_credit_authorization", "authorization_advice", "credit_authorization_advice", "return_reversal"]
    for (const [path, body] of [
      [`${V}/quotes/Quote:00000000-0000-4000-8000-000000000000/authorize`, { code: "123456" }],
      ...simulators.map((kind) => [`${V}/sandbox/cards/${card}/simulate/${kind}`, { amount: 100 }] as const)
    ] as const) {
      const refused = await t.request("POST", path, { body, auth: manager })
      expect(refused.status).toBe(403)
      expect(refused.body.details.requiredPermission).toBe("TRANSACT")
      // With TRANSACT the operation itself runs and judges the request (a 400 or 404 here, never a 403).
      const judged = await t.request("POST", path, { body, auth: payer })
      expect([400, 404]).toContain(judged.status)
    }
  })

  it("a MANAGE token grants only what it holds: asking for TRANSACT is 403 and creates nothing", async () => {
    const manager = tokenAuth(await create("Manager 3", ["MANAGE", "VIEW"]))
    const count = (await t.request("GET", `${V}/tokens?limit=100`)).body.totalCount
    const r = await t.request("POST", `${V}/tokens`, { body: { name: "escalated", permissions: ["TRANSACT", "VIEW"] }, auth: manager })
    expect(r.status).toBe(403)
    expect(r.body).toMatchObject({ code: "FORBIDDEN", details: { reason: "PERMISSION_ESCALATION", lacking: ["TRANSACT"] } })
    expect((await t.request("GET", `${V}/tokens?limit=100`)).body.totalCount).toBe(count)
    const ok = await t.request("POST", `${V}/tokens`, { body: { name: "viewer from manager", permissions: ["VIEW"] }, auth: manager })
    expect(ok.status).toBe(201)
  })

  it("a VIEW-only token cannot cancel an invitation (403 before anything is looked up)", async () => {
    const viewer = tokenAuth(await create("Viewer 2", ["VIEW"]))
    const r = await t.request("POST", `${V}/invitations/00000000deadbeef/cancel`, { auth: viewer })
    expect(r.status).toBe(403)
    expect(r.body).toMatchObject({ code: "FORBIDDEN", details: { requiredPermission: "MANAGE" } })
  })

  it("a token may delete itself: 204, and its next request is 401", async () => {
    const self = await create("Self-deleting", ["MANAGE"])
    const r = await t.request("DELETE", `${V}/tokens/${self.id}`, { auth: tokenAuth(self) })
    expect(r.status).toBe(204)
    expect((await t.request("GET", `${V}/tokens/${self.id}`, { auth: tokenAuth(self) })).status).toBe(401)
  })

  it("wrong secrets for a token's client id are throttled like the platform's: 429 with Retry-After", async () => {
    const token = await create("Throttled", ["VIEW"])
    const wrong = tokenAuth({ clientId: token.clientId, clientSecret: "f".repeat(64) })
    for (let i = 0; i < 5; i++) expect((await t.request("GET", `${V}/customers`, { auth: wrong })).status).toBe(401)
    const limited = await t.request("GET", `${V}/customers`, { auth: wrong })
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0)
  })

  it("lists the platform's tokens oldest first, by name and times, paged; never a secret", async () => {
    const a = await create("list-a", ["VIEW"])
    const b = await create("list-b", ["VIEW"])
    const c = await create("list-a", ["MANAGE"])
    const byName = await t.request("GET", `${V}/tokens?name=list-a`)
    expect(byName.body).toMatchObject({ hasMore: false, totalCount: 2 })
    expect(byName.body.data.map((x: any) => x.id)).toEqual([a.id, c.id])
    expect(JSON.stringify(byName.body)).not.toContain("clientSecret")
    const since = await t.request("GET", `${V}/tokens?createdAfter=${encodeURIComponent(b.createdAt)}`)
    expect(since.body.data.map((x: any) => x.id)).toEqual(expect.arrayContaining([b.id, c.id]))
    const future = await t.request("GET", `${V}/tokens?createdAfter=2999-01-01T00:00:00Z`)
    expect(future.body.data).toEqual([])
    const page = await t.request("GET", `${V}/tokens?limit=1`)
    expect(page.body.hasMore).toBe(true)
    const next = await t.request("GET", `${V}/tokens?limit=1&cursor=${page.body.nextCursor}`)
    expect(next.body.data[0].id).not.toBe(page.body.data[0].id)
  })

  it("400 lists every invalid field of a creation, and of a list query", async () => {
    const r = await t.request("POST", `${V}/tokens`, { body: { name: "", permissions: ["VIEW", "ADMIN"] } })
    expect(r.status).toBe(400)
    expect(r.body.details.errors.map((e: any) => e.field).sort()).toEqual(["name", "permissions.1"])
    const none = await t.request("POST", `${V}/tokens`, { body: { name: "nothing", permissions: [] } })
    expect(none.body.details.errors.map((e: any) => e.field)).toEqual(["permissions"])
    const q = await t.request("GET", `${V}/tokens?createdAfter=yesterday&limit=0`)
    expect(q.status).toBe(400)
    expect(q.body.details.errors.map((e: any) => e.field).sort()).toEqual(["createdAfter", "limit"])
  })

  it("another platform's token is not found, and its credentials name only its own platform", async () => {
    await t.engine.platform({ clientId: "other-platform", clientSecret: "other-secret-0123456789" })
    const other = basic("other-platform", "other-secret-0123456789")
    const theirs = (await t.request("POST", `${V}/tokens`, { body: { name: "theirs", permissions: ["VIEW"] }, auth: other })).body
    expect((await t.request("GET", `${V}/tokens/${theirs.id}`)).body.code).toBe("TOKEN_NOT_FOUND")
    expect((await t.request("DELETE", `${V}/tokens/${theirs.id}`)).status).toBe(404)
    const mine = await t.request("GET", `${V}/tokens`)
    expect(mine.body.data.map((x: any) => x.id)).not.toContain(theirs.id)
    const seen = await t.request("GET", `${V}/tokens`, { auth: tokenAuth(theirs) })
    expect(seen.body.data.map((x: any) => x.id)).toEqual([theirs.id])
  })

  it("through the embedding API: create, read, list and delete", async () => {
    const platform = await t.engine.platform({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET })
    const api = t.engine.as(platform).platform
    const created = await api.createToken({ name: "embedded", permissions: ["VIEW"] })
    expect(created.clientSecret).toMatch(/^[0-9a-f]{64}$/)
    expect((await api.getToken(created.id)).clientSecret).toBeUndefined()
    expect((await api.listTokens({ name: "embedded" })).data.map((x) => x.id)).toEqual([created.id])
    await api.deleteToken(created.id)
    await expect(api.getToken(created.id)).rejects.toMatchObject({ _tag: "TOKEN_NOT_FOUND" })
  })
})
