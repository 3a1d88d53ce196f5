import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startWebhookWorker } from "@tessera/adapter-http"
import { CLIENT_ID, CLIENT_SECRET, startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { checkWebhook } from "../support/openapi-checker.ts"
import { startReceiver } from "../webhooks/receiver.ts"

const V = "/2025-10-13"
const NOBODY = "$nobody@elsewhere.example"

describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("UMA invitations over HTTP (%s store)", (kind) => {
  let t: TestServer
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  let inviterUma: string
  beforeAll(async () => {
    t = await startTestServer(kind, { clock: "virtual" })
    receiver = await startReceiver()
    const c = await t.request("POST", `${V}/customers`, { body: { customerType: "INDIVIDUAL", fullName: "Ivy Inviter" } })
    inviterUma = c.body.umaAddress
  })
  afterAll(async () => {
    await t.close()
    await receiver.close()
  })

  const invite = async (over: Record<string, unknown> = {}) => {
    const r = await t.request("POST", `${V}/invitations`, { body: { inviterUma, ...over } })
    expect(r.status).toBe(201)
    return r.body
  }

  it("400 INVITATIONS_NOT_CONFIGURED until the platform has a webhook URL to report claims to", async () => {
    const r = await t.request("POST", `${V}/invitations`, { body: { inviterUma } })
    expect(r.status).toBe(400)
    expect(r.body.code).toBe("INVITATIONS_NOT_CONFIGURED")
    expect((await t.request("PATCH", `${V}/config`, { body: { webhookEndpoint: receiver.url } })).status).toBe(200)
  })

  it("creates a PENDING invitation from a customer, readable by its code", async () => {
    const inv = await invite({ firstName: "Jane", amountToSend: 12_550 })
    expect(inv).toMatchObject({ inviterUma, status: "PENDING", firstName: "Jane", amountToSend: { amount: 12_550, currency: { code: "USD" } } })
    expect(inv.code).toMatch(/^[0-9a-f]{16}$/)
    expect(inv.url).toBe(`https://sandbox.tessera.local/i/${inv.code}`)
    expect((await t.request("GET", `${V}/invitations/${inv.code}`)).body).toEqual(inv)
  })

  it("a claim makes it CLAIMED with the invitee's address and sends INVITATION.CLAIMED; a second claim or a cancel is 400 INVITATION_ALREADY_CLAIMED", async () => {
    const worker = startWebhookWorker(t.engine, { intervalMs: 60_000 })
    try {
      const inv = await invite()
      const claimed = await t.request("POST", `${V}/invitations/${inv.code}/claim`, { body: { inviteeUma: "$invitee@other.example" } })
      expect(claimed.status).toBe(200)
      expect(claimed.body).toMatchObject({ code: inv.code, status: "CLAIMED", inviteeUma: "$invitee@other.example" })
      expect(claimed.body.claimedAt).toBeTypeOf("string")
      const again = await t.request("POST", `${V}/invitations/${inv.code}/claim`, { body: { inviteeUma: "$late@other.example" } })
      expect(again.body).toMatchObject({ status: 400, code: "INVITATION_ALREADY_CLAIMED" })
      expect((await t.request("POST", `${V}/invitations/${inv.code}/cancel`)).body.code).toBe("INVITATION_ALREADY_CLAIMED")
      expect((await t.request("GET", `${V}/invitations/${inv.code}`)).body).toEqual(claimed.body)
      await worker.tick()
      const delivered = receiver.received.filter((r) => r.event.type === "INVITATION.CLAIMED")
      expect(delivered.map((r) => r.event.data)).toEqual([claimed.body])
      expect(checkWebhook("InvitationClaimedWebhook", delivered[0]!.event)).toEqual([])
    } finally {
      await worker.stop()
    }
  })

  it("cancel makes a pending invitation CANCELLED; claiming or cancelling it again is 400 INVITATION_CANCELLED", async () => {
    const inv = await invite()
    const cancelled = await t.request("POST", `${V}/invitations/${inv.code}/cancel`)
    expect(cancelled.status).toBe(200)
    expect(cancelled.body.status).toBe("CANCELLED")
    expect((await t.request("POST", `${V}/invitations/${inv.code}/claim`, { body: { inviteeUma: "$x@other.example" } })).body.code).toBe("INVITATION_CANCELLED")
    expect((await t.request("POST", `${V}/invitations/${inv.code}/cancel`)).body.code).toBe("INVITATION_CANCELLED")
    const events = await t.request("GET", `${V}/sandbox/events?resourceId=${inv.code}`)
    expect(events.body.data).toEqual([])
  })

  it("an invitation past its expiresAt is EXPIRED and can be neither claimed nor cancelled", async () => {
    const now = Date.parse((await t.request("GET", `${V}/config`)).body.updatedAt)
    const inv = await invite({ expiresAt: new Date(now + 10 * 60_000).toISOString() })
    expect(inv.status).toBe("PENDING")
    await t.request("POST", `${V}/sandbox/clock/advance`, { body: { seconds: 3600 } })
    expect((await t.request("GET", `${V}/invitations/${inv.code}`)).body.status).toBe("EXPIRED")
    const claim = await t.request("POST", `${V}/invitations/${inv.code}/claim`, { body: { inviteeUma: "$x@other.example" } })
    expect(claim.body).toMatchObject({ status: 400, code: "INVALID_INPUT", details: { reason: "INVITATION_EXPIRED" } })
    expect((await t.request("POST", `${V}/invitations/${inv.code}/cancel`)).body.details.reason).toBe("INVITATION_EXPIRED")
  })

  it("404 INVITATION_NOT_FOUND for a code the platform never issued", async () => {
    for (const [method, path, body] of [
      ["GET", `${V}/invitations/00000000deadbeef`, undefined],
      ["POST", `${V}/invitations/00000000deadbeef/claim`, { inviteeUma: "$x@other.example" }],
      ["POST", `${V}/invitations/not-a-code/cancel`, undefined]
    ] as const) {
      const r = await t.request(method, path, body === undefined ? {} : { body })
      expect(r.status).toBe(404)
      expect(r.body.code).toBe("INVITATION_NOT_FOUND")
    }
  })

  it("400 INVALID_UMA_ADDRESS for a malformed address, an inviter who is no customer, an invitee who is the inviter", async () => {
    const malformed = await t.request("POST", `${V}/invitations`, { body: { inviterUma: "ivy@example.com" } })
    expect(malformed.body).toMatchObject({ code: "INVALID_UMA_ADDRESS", details: { errors: [expect.objectContaining({ field: "inviterUma" })] } })
    expect((await t.request("POST", `${V}/invitations`, { body: { inviterUma: NOBODY } })).body.code).toBe("INVALID_UMA_ADDRESS")
    const inv = await invite()
    const bad = await t.request("POST", `${V}/invitations/${inv.code}/claim`, { body: { inviteeUma: "not an address" } })
    expect(bad.body).toMatchObject({ code: "INVALID_UMA_ADDRESS", details: { errors: [expect.objectContaining({ field: "inviteeUma" })] } })
    expect((await t.request("POST", `${V}/invitations/${inv.code}/claim`, { body: { inviteeUma: inviterUma.toUpperCase() } })).body.code).toBe("INVALID_UMA_ADDRESS")
    expect((await t.request("GET", `${V}/invitations/${inv.code}`)).body.status).toBe("PENDING")
  })

  it("400 INVALID_INPUT lists every invalid field, the address among them", async () => {
    const r = await t.request("POST", `${V}/invitations`, {
      body: { inviterUma: "bad", firstName: 7, amountToSend: -5, expiresAt: "2000-01-01T00:00:00Z" }
    })
    expect(r.body.code).toBe("INVALID_INPUT")
    expect(r.body.details.errors.map((e: any) => e.field).sort()).toEqual(["amountToSend", "firstName", "inviterUma"])
    const past = await t.request("POST", `${V}/invitations`, { body: { inviterUma, expiresAt: "2000-01-01T00:00:00Z" } })
    expect(past.body.details.errors.map((e: any) => e.field)).toEqual(["expiresAt"])
    const missing = await t.request("POST", `${V}/invitations/00000000deadbeef/claim`, { body: {} })
    expect(missing.body.details.errors.map((e: any) => e.field)).toEqual(["inviteeUma"])
  })

  it("through the embedding API: create, read, claim", async () => {
    const platform = await t.engine.platform({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET })
    const api = t.engine.as(platform).invitations
    const inv = await api.create({ inviterUma })
    expect((await api.get(inv.code)).status).toBe("PENDING")
    expect((await api.claim(inv.code, { inviteeUma: "$embedded@other.example" })).status).toBe("CLAIMED")
    await expect(api.cancel(inv.code)).rejects.toMatchObject({ _tag: "INVITATION_ALREADY_CLAIMED" })
  })
})
