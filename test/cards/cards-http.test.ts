import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { decryptCardReveal, newKeyPair } from "@tessera/core/testing"
import { passesLuhn } from "@tessera/core"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { advance, cardholder, issue, patchCard, V, webhooksAbout } from "./support.ts"

describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("cards over HTTP (%s store)", (kind) => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer(kind, { clock: "virtual" })
  })
  afterAll(async () => t.close())

  const states = async (id: string) => (await webhooksAbout(t, id)).filter((e) => e.type === "CARD.STATE_CHANGE").map((e) => e.data.state)

  describe("issuing", () => {
    it("issues a virtual card ACTIVE at once, in its funding source's currency, and publishes CARD.STATE_CHANGE", async () => {
      const h = await cardholder(t)
      const card = await issue(t, h, { platformCardId: "emp-aary-777", maxSpendPerTransaction: 5000 })
      expect(card).toMatchObject({
        cardholderId: h.customerId,
        platformCardId: "emp-aary-777",
        state: "ACTIVE",
        stateReason: null,
        brand: "VISA",
        form: "VIRTUAL",
        fundingSources: [h.accountId],
        maxSpendPerTransaction: 5000,
        currency: "USDB"
      })
      expect(card.id).toMatch(/^Card:[0-9a-f-]{36}$/)
      expect(card.last4).toMatch(/^\d{4}$/)
      expect(card.expYear).toBe(new Date(card.createdAt).getUTCFullYear() + 3)
      expect(card.expMonth).toBe(new Date(card.createdAt).getUTCMonth() + 1)
      expect((await t.request("GET", `${V}/cards/${card.id}`)).body).toEqual(card)
      expect(await states(card.id)).toEqual(["ACTIVE"])
    })

    it("generates a platformCardId when none is given, and the limit defaults to none", async () => {
      const h = await cardholder(t)
      const r = await t.request("POST", `${V}/cards`, { body: { cardholderId: h.customerId, form: "VIRTUAL", fundingSources: [h.accountId] } })
      expect(r.status).toBe(201)
      expect(r.body.platformCardId).toMatch(/^card-[0-9a-f-]{36}$/)
      expect(r.body.maxSpendPerTransaction).toBeNull()
    })

    it("platformCardId ending 001 stays PROCESSING, with no webhook, however long one waits", async () => {
      const card = await issue(t, await cardholder(t), { platformCardId: "slow-001" })
      expect(card.state).toBe("PROCESSING")
      await advance(t, 3600)
      expect((await t.request("GET", `${V}/cards/${card.id}`)).body.state).toBe("PROCESSING")
      expect(await states(card.id)).toEqual([])
    })

    it("platformCardId ending 002 is rejected by the issuer: CLOSED with ISSUER_REJECTED", async () => {
      const card = await issue(t, await cardholder(t), { platformCardId: "rejected-002" })
      expect(card).toMatchObject({ state: "CLOSED", stateReason: "ISSUER_REJECTED" })
      expect(await states(card.id)).toEqual(["CLOSED"])
    })

    it("platformCardId ending 005 activates 30 s after issue on the engine's clock, then publishes CARD.STATE_CHANGE", async () => {
      const card = await issue(t, await cardholder(t), { platformCardId: "later-005" })
      expect(card.state).toBe("PROCESSING")
      await advance(t, 29)
      expect((await t.request("GET", `${V}/cards/${card.id}`)).body.state).toBe("PROCESSING")
      await advance(t, 1)
      const now = (await t.request("GET", `${V}/cards/${card.id}`)).body
      expect(now).toMatchObject({ state: "ACTIVE", stateReason: null })
      expect(Date.parse(now.updatedAt) - Date.parse(card.createdAt)).toBe(30_000)
      expect(await states(card.id)).toEqual(["ACTIVE"])
    })

    it("400 CARDHOLDER_KYC_NOT_APPROVED when the cardholder's KYC is not APPROVED", async () => {
      const pending = await cardholder(t, 0, "Waiting 001")
      const r = await t.request("POST", `${V}/cards`, { body: { cardholderId: pending.customerId, form: "VIRTUAL", fundingSources: [pending.accountId] } })
      expect([r.status, r.body.code]).toEqual([400, "CARDHOLDER_KYC_NOT_APPROVED"])
      expect(r.body.details).toMatchObject({ cardholderId: pending.customerId, kycStatus: "PENDING" })
      expect((await t.request("GET", `${V}/cards?cardholderId=${encodeURIComponent(pending.customerId)}`)).body.data).toEqual([])
    })

    it("400 FUNDING_SOURCE_INELIGIBLE for another customer's account, the platform's and an unknown one, each listed", async () => {
      const h = await cardholder(t)
      const other = await cardholder(t)
      const platformAccount = (await t.request("GET", `${V}/platform/internal-accounts`)).body.data[0].id
      const unknown = "InternalAccount:00000000-0000-4000-8000-000000000000"
      const r = await t.request("POST", `${V}/cards`, {
        body: { cardholderId: h.customerId, form: "VIRTUAL", fundingSources: [h.accountId, other.accountId, platformAccount, unknown] }
      })
      expect([r.status, r.body.code]).toEqual([400, "FUNDING_SOURCE_INELIGIBLE"])
      expect(r.body.details.fundingSources.map((f: { accountId: string }) => f.accountId)).toEqual([other.accountId, platformAccount, unknown])
    })

    it("400 INVALID_INPUT lists every invalid field, and an unknown cardholder", async () => {
      const r = await t.request("POST", `${V}/cards`, { body: { form: "PHYSICAL", fundingSources: [], maxSpendPerTransaction: 0 } })
      expect([r.status, r.body.code]).toEqual([400, "INVALID_INPUT"])
      expect(r.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(["cardholderId", "form", "fundingSources", "maxSpendPerTransaction"])
      const h = await cardholder(t)
      const twice = await t.request("POST", `${V}/cards`, { body: { cardholderId: h.customerId, form: "VIRTUAL", fundingSources: [h.accountId, h.accountId] } })
      expect([twice.status, twice.body.details.errors[0].field]).toEqual([400, "fundingSources"])
      const nobody = await t.request("POST", `${V}/cards`, { body: { cardholderId: "Customer:00000000-0000-4000-8000-000000000000", form: "VIRTUAL", fundingSources: [h.accountId] } })
      expect([nobody.status, nobody.body.code, nobody.body.details.errors[0].field]).toEqual([400, "INVALID_INPUT", "cardholderId"])
    })
  })

  describe("listing", () => {
    it("filters by cardholder, funding source, platformCardId and state, newest first unless asc, paged", async () => {
      const h = await cardholder(t)
      const a = await issue(t, h, { platformCardId: "list-a" })
      const b = await issue(t, h, { platformCardId: "list-b-001" })
      const c = await issue(t, h, { platformCardId: "list-c" })
      const q = (s: string) => t.request("GET", `${V}/cards?${s}`)
      const mine = await q(`cardholderId=${encodeURIComponent(h.customerId)}`)
      expect(mine.body.data.map((x: { id: string }) => x.id)).toEqual([c.id, b.id, a.id])
      expect(mine.body.totalCount).toBe(3)
      expect((await q(`accountId=${encodeURIComponent(h.accountId)}&sortOrder=asc`)).body.data.map((x: { id: string }) => x.id)).toEqual([a.id, b.id, c.id])
      expect((await q("platformCardId=list-b-001")).body.data.map((x: { id: string }) => x.id)).toEqual([b.id])
      const processing = await q(`cardholderId=${encodeURIComponent(h.customerId)}&state=PROCESSING`)
      expect(processing.body.data.map((x: { id: string }) => x.id)).toEqual([b.id])
      const first = await q(`cardholderId=${encodeURIComponent(h.customerId)}&limit=2`)
      expect(first.body).toMatchObject({ hasMore: true })
      const rest = await q(`cardholderId=${encodeURIComponent(h.customerId)}&limit=2&cursor=${first.body.nextCursor}`)
      expect(rest.body.data.map((x: { id: string }) => x.id)).toEqual([a.id])
      expect((await q("state=OPEN")).status).toBe(400)
    })

    it("404 REFERENCE_NOT_FOUND for a card of no one, or of another platform's making", async () => {
      const r = await t.request("GET", `${V}/cards/Card:00000000-0000-4000-8000-000000000001`)
      expect([r.status, r.body.code, r.body.details.resource]).toEqual([404, "REFERENCE_NOT_FOUND", "Card"])
      expect((await t.request("GET", `${V}/cards/not-a-card`)).status).toBe(404)
    })
  })

  describe("the spec's card table, row by row", () => {
    const rows: ReadonlyArray<readonly [string, string, string | null]> = [
      ["ACTIVE", "FROZEN", null],
      ["FROZEN", "ACTIVE", null],
      ["ACTIVE", "CLOSED", "CLOSED_BY_PLATFORM"],
      ["FROZEN", "CLOSED", "CLOSED_BY_PLATFORM"]
    ]
    it.each(rows)("%s → %s answers 200 and publishes CARD.STATE_CHANGE", async (from, to, reason) => {
      const card = await issue(t, await cardholder(t))
      if (from === "FROZEN") expect((await patchCard(t, card.id, { state: "FROZEN" })).status).toBe(200)
      const r = await patchCard(t, card.id, { state: to })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body).toMatchObject({ state: to, stateReason: reason })
      expect((await t.request("GET", `${V}/cards/${card.id}`)).body).toEqual(r.body)
      expect((await states(card.id)).at(-1)).toBe(to)
      // Closing detaches the funding sources.
      if (to === "CLOSED") expect(r.body.fundingSources).toEqual([])
    })

    it("a CLOSED card cannot be mutated: 409 CARD_NOT_MUTABLE, and CARD_ALREADY_CLOSED when CLOSED is asked again", async () => {
      const h = await cardholder(t)
      const card = await issue(t, h)
      await patchCard(t, card.id, { state: "CLOSED" })
      for (const body of [{ state: "ACTIVE" }, { state: "FROZEN" }, { maxSpendPerTransaction: 10 }, { fundingSources: [h.accountId] }]) {
        const r = await patchCard(t, card.id, body)
        expect([r.status, r.body.code], JSON.stringify(body)).toEqual([409, "CARD_NOT_MUTABLE"])
      }
      const again = await patchCard(t, card.id, { state: "CLOSED" })
      expect([again.status, again.body.code]).toEqual([409, "CARD_ALREADY_CLOSED"])
      const rejected = await issue(t, h, { platformCardId: "no-002" })
      expect((await patchCard(t, rejected.id, { state: "CLOSED" })).body.code).toBe("CARD_ALREADY_CLOSED")
      expect(await states(card.id)).toEqual(["ACTIVE", "CLOSED"])
    })

    it("any other requested transition is 409 INVALID_STATE_TRANSITION: to the same state, or from PROCESSING", async () => {
      const h = await cardholder(t)
      const active = await issue(t, h)
      expect((await patchCard(t, active.id, { state: "ACTIVE" })).body.code).toBe("INVALID_STATE_TRANSITION")
      await patchCard(t, active.id, { state: "FROZEN" })
      expect((await patchCard(t, active.id, { state: "FROZEN" })).body.code).toBe("INVALID_STATE_TRANSITION")
      const processing = await issue(t, h, { platformCardId: "p-001" })
      for (const state of ["ACTIVE", "FROZEN", "CLOSED"]) {
        const r = await patchCard(t, processing.id, { state })
        expect([r.status, r.body.code]).toEqual([409, "INVALID_STATE_TRANSITION"])
      }
      expect((await t.request("GET", `${V}/cards/${processing.id}`)).body.state).toBe("PROCESSING")
    })
  })

  describe("other changes", () => {
    it("replaces the funding sources (CARD.FUNDING_SOURCE_CHANGE) and sets and clears the limit", async () => {
      const h = await cardholder(t)
      const card = await issue(t, h)
      const limit = await patchCard(t, card.id, { maxSpendPerTransaction: 700 })
      expect(limit.body.maxSpendPerTransaction).toBe(700)
      expect((await patchCard(t, card.id, { maxSpendPerTransaction: null })).body.maxSpendPerTransaction).toBeNull()
      const both = await patchCard(t, card.id, { state: "FROZEN", fundingSources: [h.accountId] })
      expect(both.body).toMatchObject({ state: "FROZEN", fundingSources: [h.accountId] })
      const types = (await webhooksAbout(t, card.id)).map((e) => e.type)
      expect(types).toEqual(["CARD.STATE_CHANGE", "CARD.STATE_CHANGE", "CARD.FUNDING_SOURCE_CHANGE"])
      // A PROCESSING card's sources and limit can change; only its state cannot.
      const processing = await issue(t, h, { platformCardId: "q-001" })
      expect((await patchCard(t, processing.id, { maxSpendPerTransaction: 5 })).status).toBe(200)
    })

    it("400: CLOSED with other fields lists each, an empty body, an ineligible source; 404 for no card", async () => {
      const h = await cardholder(t)
      const card = await issue(t, h)
      const combined = await patchCard(t, card.id, { state: "CLOSED", fundingSources: [h.accountId], maxSpendPerTransaction: 5 })
      expect([combined.status, combined.body.code]).toEqual([400, "INVALID_INPUT"])
      expect(combined.body.details.errors.map((e: { field: string }) => e.field)).toEqual(["fundingSources", "maxSpendPerTransaction"])
      expect((await patchCard(t, card.id, {})).body.code).toBe("INVALID_INPUT")
      expect((await patchCard(t, card.id, { state: "OPEN", maxSpendPerTransaction: -1 })).body.details.errors).toHaveLength(2)
      const other = await cardholder(t)
      const r = await patchCard(t, card.id, { fundingSources: [other.accountId] })
      expect([r.status, r.body.code]).toEqual([400, "FUNDING_SOURCE_INELIGIBLE"])
      expect((await t.request("GET", `${V}/cards/${card.id}`)).body).toMatchObject({ state: "ACTIVE", fundingSources: [h.accountId] })
      const missing = await patchCard(t, "Card:00000000-0000-4000-8000-000000000002", { state: "FROZEN" })
      expect([missing.status, missing.body.code]).toEqual([404, "REFERENCE_NOT_FOUND"])
    })
  })

  describe("reveal", () => {
    it("seals the PAN, CVV and expiry to the client's key: the same Luhn-valid PAN each time, ending in last4", async () => {
      const h = await cardholder(t)
      const card = await issue(t, h)
      const key = newKeyPair()
      const r = await t.request("POST", `${V}/cards/${card.id}/reveal`, { body: { clientPublicKey: key.publicKeyUncompressed } })
      expect(r.status).toBe(200)
      const clock = (await t.request("GET", `${V}/sandbox/clock`)).body
      expect(Date.parse(r.body.expiresAt) - Date.parse(clock.now)).toBe(5 * 60_000)
      const shown = decryptCardReveal(r.body.panEmbedUrl, key.privateKey)
      expect(passesLuhn(shown.pan)).toBe(true)
      expect(shown.pan.slice(-4)).toBe(card.last4)
      expect(shown.cvv).toMatch(/^\d{3}$/)
      expect({ expMonth: shown.expMonth, expYear: shown.expYear }).toEqual({ expMonth: card.expMonth, expYear: card.expYear })
      const again = await t.request("POST", `${V}/cards/${card.id}/reveal`, { body: { clientPublicKey: key.publicKeyUncompressed } })
      expect(decryptCardReveal(again.body.panEmbedUrl, key.privateKey)).toEqual(shown)
      const other = await issue(t, h)
      const otherShown = decryptCardReveal((await t.request("POST", `${V}/cards/${other.id}/reveal`, { body: { clientPublicKey: key.publicKeyUncompressed } })).body.panEmbedUrl, key.privateKey)
      expect(otherShown.pan).not.toBe(shown.pan)
      // Another key cannot open it; without a key the URL carries nothing secret.
      expect(() => decryptCardReveal(r.body.panEmbedUrl, newKeyPair().privateKey)).toThrow()
      const bare = await t.request("POST", `${V}/cards/${card.id}/reveal`)
      expect(bare.status).toBe(200)
      expect(bare.body.panEmbedUrl).not.toContain(shown.pan)
      expect(() => decryptCardReveal(bare.body.panEmbedUrl, key.privateKey)).toThrow(/no sealed details/)
    })

    it("a FROZEN card can be revealed; a PROCESSING or CLOSED one is 403 FORBIDDEN; a bad key is 400", async () => {
      const h = await cardholder(t)
      const card = await issue(t, h)
      await patchCard(t, card.id, { state: "FROZEN" })
      expect((await t.request("POST", `${V}/cards/${card.id}/reveal`)).status).toBe(200)
      await patchCard(t, card.id, { state: "CLOSED" })
      const closed = await t.request("POST", `${V}/cards/${card.id}/reveal`)
      expect([closed.status, closed.body.code]).toEqual([403, "FORBIDDEN"])
      const processing = await issue(t, h, { platformCardId: "r-001" })
      expect((await t.request("POST", `${V}/cards/${processing.id}/reveal`)).status).toBe(403)
      const bad = await t.request("POST", `${V}/cards/${processing.id}/reveal`, { body: { clientPublicKey: "04abc" } })
      expect([bad.status, bad.body.details.errors[0].field]).toEqual([400, "clientPublicKey"])
    })
  })
})
