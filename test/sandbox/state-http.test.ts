import { afterEach, describe, expect, it } from "vitest"
import { stamp } from "@tessera/core/testing"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { loginWithOtp } from "../support/wallet.ts"
import { asPlatform, buildWorld, content, exportState, V } from "./support.ts"

const kinds: ReadonlyArray<StoreKind> = ["memory", "sqlite"]

/** Every page of a list, walked with its cursors. */
const walk = async (t: TestServer, path: string) => {
  const pages: Array<{ ids: ReadonlyArray<string>; totalCount: number; hasMore: boolean }> = []
  let cursor: string | undefined
  do {
    const r = await t.request("GET", `${V}${path}${path.includes("?") ? "&" : "?"}limit=2${cursor === undefined ? "" : `&cursor=${cursor}`}`)
    expect(r.status).toBe(200)
    pages.push({ ids: r.body.data.map((d: { id: string }) => d.id), totalCount: r.body.totalCount, hasMore: r.body.hasMore })
    cursor = r.body.nextCursor
  } while (cursor !== undefined)
  return pages
}

describe.each(kinds)("sandbox state over HTTP (%s store)", (kind) => {
  const open: Array<TestServer> = []
  const start = async (clock: "real" | "virtual" = "real") => {
    const t = await startTestServer(kind, { clock })
    open.push(t)
    return t
  }
  afterEach(async () => {
    for (const t of open.splice(0)) await t.close()
  })

  it("reset empties every list of the platform, re-provisions its USD account, and leaves another platform alone", async () => {
    const t = await start()
    const other = await asPlatform(t, "other")
    const world = await buildWorld(t)
    const otherWorld = await buildWorld(other)
    const otherBefore = content(await exportState(other))
    const oldUsd = (await t.request("GET", `${V}/platform/internal-accounts`)).body.data
    expect((await t.request("GET", `${V}/sandbox/events`)).body.totalCount).toBeGreaterThan(0)

    const r = await t.request("POST", `${V}/sandbox/reset`)
    expect(r.status).toBe(200)
    expect(r.body.removed).toMatchObject({ customers: 3, externalAccounts: 3, sessions: 1, outbox: 1 })

    for (const list of ["/customers?isIncludingDeleted=true", "/customers/internal-accounts", "/customers/external-accounts", "/platform/external-accounts", "/sandbox/events"])
      expect((await t.request("GET", `${V}${list}`)).body.totalCount, list).toBe(0)
    expect((await t.request("GET", `${V}/customers/${world.customerId}`)).status).toBe(404)
    expect((await t.request("GET", `${V}/auth/sessions?accountId=${world.accountId}`)).body.data).toEqual([])
    // As a new platform is: one platform-owned INTERNAL_FIAT USD account, a fresh one.
    const usd = (await t.request("GET", `${V}/platform/internal-accounts`)).body.data
    expect(usd).toHaveLength(1)
    expect(usd[0]).toMatchObject({ type: "INTERNAL_FIAT", balance: { amount: 0, currency: { code: "USD" } } })
    expect(usd[0].id).not.toBe(oldUsd[0].id)
    // The platform's credentials still work (every request above used them), and it starts over.
    expect((await t.request("POST", `${V}/customers`, { body: { customerType: "INDIVIDUAL", fullName: "After 004" } })).status).toBe(201)

    expect(content(await exportState(other))).toEqual(otherBefore)
    expect((await other.request("GET", `${V}/customers/${otherWorld.customerId}`)).status).toBe(200)
  })

  it("export → import into a fresh server → export is identical, and the imported state works", async () => {
    const a = await start()
    const world = await buildWorld(a)
    const doc = await exportState(a)
    expect(doc).toMatchObject({ format: "tessera.state", version: 1 })
    expect(Object.keys(doc.collections)).toEqual([
      "customers", "internalAccounts", "authMethods", "sessions", "signedRequests", "processingControls", "otpIssuances", "passkeyChallenges", "externalAccounts",
      "documents", "documentFiles", "beneficialOwners", "verifications", "kycLinks", "bulkImportJobs", "transactions", "ledgerBalances", "ledgerMovements",
      "receiverLookups", "quotes", "idempotencyKeys", "invitations", "delegatedKeys", "scaProfiles", "scaResets", "cards",
      "stablecoinProviderAccounts", "stablecoins", "stablecoinOperations",
      "agents", "agentActions", "agentQuotes"
    ])

    const b = await start("virtual")
    const mine = (await b.request("POST", `${V}/customers`, { body: { customerType: "INDIVIDUAL", fullName: "Replaced" } })).body.id
    const imported = await b.request("PUT", `${V}/sandbox/state`, { body: doc })
    expect(imported.status).toBe(200)
    expect(imported.body.imported).toMatchObject({ customers: 3, externalAccounts: 3, sessions: 1 })
    expect(content(await exportState(b))).toEqual(content(doc))

    // The import replaced b's own data; what it holds now reads as it did on a.
    expect((await b.request("GET", `${V}/customers/${mine}`)).status).toBe(404)
    for (const path of [`/customers/${world.customerId}`, `/customers/external-accounts/${world.externalAccountIds[0]}`, `/platform/external-accounts/${world.externalAccountIds[1]}`])
      expect((await b.request("GET", `${V}${path}`)).body).toEqual((await a.request("GET", `${V}${path}`)).body)
    // Listing order, page boundaries and counts survive (cursors are minted afresh by b).
    for (const list of ["/customers?isIncludingDeleted=true", "/customers/internal-accounts", "/platform/external-accounts"])
      expect(await walk(b, list), list).toEqual(await walk(a, list))

    // The session a's login opened still signs on b: the client holds the key, b holds the public half.
    const path = `${V}/internal-accounts/${world.accountId}`
    const first = await b.request("PATCH", path, { body: { privateEnabled: true } })
    expect(first.status).toBe(202)
    const signed = await b.request("PATCH", path, {
      body: { privateEnabled: true },
      headers: { "service-wallet-signature": stamp(world.sessionKey.privateKey, first.body.payloadToSign), "request-id": first.body.requestId }
    })
    expect(signed.status, JSON.stringify(signed.body)).toBe(200)
    expect(signed.body.privateEnabled).toBe(true)
    // And a new login completes on an imported credential (b's own server keys sign its OTP bundle),
    // once the challenge rate limit a's login started has run out: that came along too.
    expect((await b.request("POST", `${V}/auth/credentials/${world.credentialId}/challenge`)).status).toBe(429)
    await b.request("POST", `${V}/sandbox/clock/advance`, { body: { seconds: 31 } })
    const { session } = await loginWithOtp(b, world.credentialId)
    expect(session.accountId).toBe(world.accountId)
    // The open LIVENESS challenge came along and can be decided.
    const decided = await b.request("POST", `${V}/sandbox/external-accounts/${world.externalAccountIds[2]}/liveness`, { body: { outcome: "PASSED" } })
    expect(decided.body.status).toBe("ACTIVE")
  })

  it("keeps platforms apart: an export holds only its platform's records, an import touches no one else", async () => {
    const t = await start()
    const b = await asPlatform(t, "platform-b")
    const worldA = await buildWorld(t)
    const worldB = await buildWorld(b)
    const docA = await exportState(t)
    const docB = await exportState(b)
    const idsOf = (doc: { collections: Record<string, Array<{ id: string }>> }) => new Set(Object.values(doc.collections).flatMap((rs) => rs.map((r) => r.id)))
    const a = idsOf(docA)
    for (const id of idsOf(docB)) expect(a.has(id), id).toBe(false)
    for (const id of [worldB.customerId, worldB.accountId, ...worldB.externalAccountIds]) expect(JSON.stringify(docA)).not.toContain(id)
    // Nothing of the server's own: no platform record, secret hash or key material.
    expect(JSON.stringify(docA)).not.toMatch(/secretSha256|clientId|test-secret|"keys"|"settings"|"platforms"|"outbox"/)

    // B imports A's document: B now reads A's customer, A is unchanged, and A's ids still resolve on A.
    expect((await b.request("PUT", `${V}/sandbox/state`, { body: docA })).status).toBe(200)
    expect((await b.request("GET", `${V}/customers/${worldA.customerId}`)).status).toBe(200)
    expect((await b.request("GET", `${V}/customers/${worldB.customerId}`)).status).toBe(404)
    expect(content(await exportState(t))).toEqual(content(docA))
    expect(content(await exportState(b))).toEqual(content(docA))
  })

  it("a document over the 1 MiB body cap is 413 with the envelope, and nothing changes", async () => {
    const t = await start()
    await buildWorld(t)
    const before = content(await exportState(t))
    const big = { format: "tessera.state", version: 1, collections: { customers: [{ id: "x", pad: "x".repeat(1024 * 1024) }] } }
    const r = await t.request("PUT", `${V}/sandbox/state`, { body: big })
    expect(r.status).toBe(413)
    expect(r.body.code).toBe("PAYLOAD_TOO_LARGE")
    expect(content(await exportState(t))).toEqual(before)
  })

  it("needs credentials, like every route under the version prefix", async () => {
    const t = await start()
    for (const [method, path] of [["GET", "/sandbox/state"], ["PUT", "/sandbox/state"], ["POST", "/sandbox/reset"]] as const)
      expect((await t.request(method, `${V}${path}`, { auth: null })).status).toBe(401)
  })
})
