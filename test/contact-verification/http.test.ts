import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { individual, startTestServer, type StoreKind, type TestServer } from "../support/server.ts"

const V = "/2025-10-13"
const CODE = "123456"

describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("contact verification over HTTP (%s store)", (kind) => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer(kind, { clock: "virtual" })
  })
  afterAll(async () => t.close())

  let n = 0
  const euCustomer = async (over: Record<string, unknown> = {}) => {
    n += 1
    const r = await t.request("POST", `${V}/customers`, {
      body: individual({ region: "DE", email: `eu-${kind}-${n}@example.com`, phoneNumber: `+4915112345${String(n).padStart(3, "0")}`, ...over })
    })
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    return r.body
  }
  const path = (id: string, channel: "email" | "phone", confirm = false) => `${V}/customers/${id}/verify-${channel}${confirm ? "/confirm" : ""}`
  const advance = (seconds: number) => t.request("POST", `${V}/sandbox/clock/advance`, { body: { seconds } })

  it("gives EU/EEA customers both channels PENDING from creation, and others no contactVerification", async () => {
    const eu = await euCustomer()
    expect(eu.contactVerification).toEqual({ email: "PENDING", phone: "PENDING" })
    const us = await t.request("POST", `${V}/customers`, { body: individual({ region: "US", email: undefined }) })
    expect(us.body.contactVerification).toBeUndefined()
    const none = await t.request("POST", `${V}/customers`, { body: individual({ email: undefined }) })
    expect(none.body.contactVerification).toBeUndefined()
  })

  it("sends a code (204) and confirms it: the channel becomes VERIFIED and updatedAt moves", async () => {
    const c = await euCustomer()
    const sent = await t.request("POST", path(c.id, "email"))
    expect(sent.status).toBe(204)
    expect(sent.body).toBeUndefined()
    // Sending changes nothing a client sees.
    expect((await t.request("GET", `${V}/customers/${c.id}`)).body).toEqual(c)
    await advance(1)
    const confirmed = await t.request("POST", path(c.id, "email", true), { body: { code: CODE } })
    expect(confirmed.status).toBe(200)
    expect(confirmed.body.contactVerification).toEqual({ email: "VERIFIED", phone: "PENDING" })
    expect(confirmed.body.updatedAt > c.updatedAt).toBe(true)
    expect(JSON.stringify(confirmed.body)).not.toContain("contactCodes")
    expect((await t.request("GET", `${V}/customers/${c.id}`)).body).toEqual(confirmed.body)
    expect((await t.request("POST", path(c.id, "phone"))).status).toBe(204)
    const both = await t.request("POST", path(c.id, "phone", true), { body: { code: CODE } })
    expect(both.body.contactVerification).toEqual({ email: "VERIFIED", phone: "VERIFIED" })
  })

  it("answers a wrong code 400 and keeps the channel PENDING; the right code still confirms after", async () => {
    const c = await euCustomer()
    await t.request("POST", path(c.id, "phone"))
    const wrong = await t.request("POST", path(c.id, "phone", true), { body: { code: "000000" } })
    expect(wrong.status).toBe(400)
    expect(wrong.body).toMatchObject({ code: "INVALID_INPUT", details: { reason: "INVALID_CODE", attemptsLeft: 4, errors: [{ field: "code" }] } })
    expect((await t.request("GET", `${V}/customers/${c.id}`)).body.contactVerification.phone).toBe("PENDING")
    const right = await t.request("POST", path(c.id, "phone", true), { body: { code: CODE } })
    expect(right.body.contactVerification.phone).toBe("VERIFIED")
  })

  it("withdraws the code after five wrong ones; a resend gives a fresh code", async () => {
    const c = await euCustomer()
    await t.request("POST", path(c.id, "email"))
    const reasons: Array<string> = []
    for (let i = 0; i < 5; i++) reasons.push((await t.request("POST", path(c.id, "email", true), { body: { code: "999999" } })).body.details.reason)
    expect(reasons).toEqual(["INVALID_CODE", "INVALID_CODE", "INVALID_CODE", "INVALID_CODE", "CODE_ATTEMPTS_EXHAUSTED"])
    const gone = await t.request("POST", path(c.id, "email", true), { body: { code: CODE } })
    expect(gone.status).toBe(400)
    expect(gone.body.details.reason).toBe("NO_PENDING_CODE")
    expect((await t.request("POST", path(c.id, "email"))).status).toBe(204)
    expect((await t.request("POST", path(c.id, "email", true), { body: { code: CODE } })).body.contactVerification.email).toBe("VERIFIED")
  })

  it("refuses a confirm with no code sent, or after the code expired, with 400", async () => {
    const c = await euCustomer()
    const unsent = await t.request("POST", path(c.id, "email", true), { body: { code: CODE } })
    expect(unsent.status).toBe(400)
    expect(unsent.body.details.reason).toBe("NO_PENDING_CODE")
    await t.request("POST", path(c.id, "email"))
    await advance(5 * 60)
    const expired = await t.request("POST", path(c.id, "email", true), { body: { code: CODE } })
    expect(expired.status).toBe(400)
    expect(expired.body.details.reason).toBe("CODE_EXPIRED")
  })

  it("refuses a confirm body without a code with 400 naming the field", async () => {
    const c = await euCustomer()
    for (const body of [{}, { code: 123456 }]) {
      const r = await t.request("POST", path(c.id, "email", true), { body })
      expect(r.status).toBe(400)
      expect(r.body.details.errors).toEqual([expect.objectContaining({ field: "code" })])
    }
    expect((await t.request("POST", path(c.id, "email", true), { raw: "[1]", headers: { "content-type": "application/json" } })).status).toBe(400)
  })

  it("answers 409 where verification is not required, already done, or has no address to send to", async () => {
    const us = (await t.request("POST", `${V}/customers`, { body: individual({ region: "US" }) })).body
    for (const p of [path(us.id, "email"), path(us.id, "phone")]) {
      const r = await t.request("POST", p)
      expect(r.status).toBe(409)
      expect(r.body.details.reason).toBe("CONTACT_VERIFICATION_NOT_REQUIRED")
    }
    expect((await t.request("POST", path(us.id, "email", true), { body: { code: CODE } })).status).toBe(409)
    const eu = await euCustomer()
    await t.request("POST", path(eu.id, "email"))
    await t.request("POST", path(eu.id, "email", true), { body: { code: CODE } })
    for (const again of [await t.request("POST", path(eu.id, "email")), await t.request("POST", path(eu.id, "email", true), { body: { code: CODE } })]) {
      expect(again.status).toBe(409)
      expect(again.body.details.reason).toBe("ALREADY_VERIFIED")
    }
    const noPhone = await euCustomer({ phoneNumber: undefined })
    const r = await t.request("POST", path(noPhone.id, "phone"))
    expect(r.status).toBe(409)
    expect(r.body.details.reason).toBe("CONTACT_MISSING")
  })

  it("answers 404 USER_NOT_FOUND for an unknown, malformed or deleted customer", async () => {
    const deleted = await euCustomer()
    await t.request("DELETE", `${V}/customers/${deleted.id}`)
    for (const id of ["Customer:00000000-0000-4000-8000-000000000000", "nope", deleted.id]) {
      for (const r of [await t.request("POST", path(id, "email")), await t.request("POST", path(id, "phone", true), { body: { code: CODE } })]) {
        expect(r.status).toBe(404)
        expect(r.body.code).toBe("USER_NOT_FOUND")
      }
    }
  })

  it("resets a channel whose address changes by PATCH, and drops the code sent to the old one", async () => {
    const c = await euCustomer()
    await t.request("POST", path(c.id, "phone"))
    await t.request("POST", path(c.id, "phone", true), { body: { code: CODE } })
    await t.request("POST", path(c.id, "email"))
    const patched = await t.request("PATCH", `${V}/customers/${c.id}`, { body: { customerType: "INDIVIDUAL", phoneNumber: "+4917000000001" } })
    expect(patched.status).toBe(200)
    expect(patched.body.contactVerification).toEqual({ email: "PENDING", phone: "PENDING" })
    // The email code was sent before and its address did not change: it still confirms.
    expect((await t.request("POST", path(c.id, "email", true), { body: { code: CODE } })).body.contactVerification.email).toBe("VERIFIED")
    const same = await t.request("PATCH", `${V}/customers/${c.id}`, { body: { customerType: "INDIVIDUAL", email: c.email } })
    expect(same.body.contactVerification.email).toBe("VERIFIED")
  })

  it("keeps platforms apart: another platform's customer is 404", async () => {
    const c = await euCustomer()
    await t.engine.platform({ clientId: `other-${kind}`, clientSecret: "other-secret-0123456789" })
    const auth = `Basic ${Buffer.from(`other-${kind}:other-secret-0123456789`).toString("base64")}`
    expect((await t.request("POST", path(c.id, "email"), { auth })).status).toBe(404)
  })
})
