import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { PlatformRecord } from "@tessera/core"
import { stamp } from "@tessera/core/testing"
import { CLIENT_ID, CLIENT_SECRET, startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { loginWithOtp } from "../support/wallet.ts"
import { createBody, newCardId, walletWithCard } from "./support.ts"

type Challenge = { payloadToSign: string; requestId: string }

/** The same groups through `engine.as(platform)`: signature headers go last, answers are Replies. */
describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("delegated keys and directories through the embedding API (%s store)", (kind) => {
  let t: TestServer
  let platform: PlatformRecord
  beforeAll(async () => {
    t = await startTestServer(kind, { clock: "virtual" })
    platform = await t.engine.platform({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET })
  })
  afterAll(async () => t.close())

  it("create (three legs), get, list, revoke", async () => {
    const api = t.engine.as(platform)
    const w = await walletWithCard(t)
    const { key } = await loginWithOtp(t, w.emailCredentialId)
    const body = createBody(w.accountId, w.cardId)
    const first = await api.delegatedKeys.create(body)
    expect(first.status).toBe(202)
    const c1 = first.body as Challenge
    const second = await api.delegatedKeys.create(body, { signature: stamp(key, c1.payloadToSign), requestId: c1.requestId })
    expect(second.status).toBe(202)
    const c2 = second.body as Challenge
    const third = await api.delegatedKeys.create(body, { signature: stamp(key, c2.payloadToSign), requestId: c2.requestId })
    expect(third).toMatchObject({ status: 201, body: { status: "ACTIVE", accountId: w.accountId, cardId: body.cardId } })
    const id = (third.body as { id: string }).id
    expect(await api.delegatedKeys.get(id)).toMatchObject({ id, status: "ACTIVE" })
    expect((await api.delegatedKeys.list({ accountId: w.accountId })).data.map((k) => k.id)).toEqual([id])
    expect(await api.delegatedKeys.revoke(id)).toMatchObject({ status: 204 })
    expect(await api.delegatedKeys.get(id)).toMatchObject({ status: "REVOKED" })
    // Domain errors reject with the tagged error, as over HTTP with the envelope.
    await expect(api.delegatedKeys.revoke(id)).rejects.toMatchObject({ _tag: "INVALID_INPUT", status: 400 })
    await expect(api.delegatedKeys.list({})).rejects.toMatchObject({ _tag: "INVALID_INPUT" })
    // The card must be a real card of the platform that the wallet funds.
    await expect(api.delegatedKeys.create(createBody(w.accountId, newCardId()))).rejects.toMatchObject({ _tag: "REFERENCE_NOT_FOUND", details: { resource: "Card" } })
  })

  it("directories", async () => {
    const api = t.engine.as(platform)
    const ph = await api.directories.discoveries({ country: "PH" })
    expect(ph.data.length).toBeGreaterThan(0)
    const vasps = await api.directories.vasps({ limit: "2" })
    expect(vasps).toMatchObject({ hasMore: true })
    const next = await api.directories.vasps({ limit: "2", cursor: vasps.nextCursor! })
    expect(next.data[0]).not.toEqual(vasps.data[0])
    const providers = await api.directories.umaProviders({ sortOrder: "asc", hasBlockedProviders: "false" })
    expect(providers.data.every((p) => p.allowListStatus)).toBe(true)
    await expect(api.directories.vasps({ limit: "0" })).rejects.toMatchObject({ _tag: "INVALID_INPUT" })
  })
})
