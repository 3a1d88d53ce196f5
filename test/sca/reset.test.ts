import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { advance, CODE, euCustomer, q, scaLogin, usCustomer, V } from "./support.ts"

describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("2FA resets over HTTP (%s store)", (kind) => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer(kind, { clock: "virtual" })
  })
  afterAll(() => t.close())

  const startReset = (c: string, factor: string) => t.request("POST", `${V}/sca/factors/reset${q(c)}`, { body: { factor } })
  const status = (c: string, id: string) => t.request("GET", `${V}/sca/factors/reset/${id}${q(c)}`)
  const completeReset = (c: string, id: string, body?: unknown) => t.request("POST", `${V}/sca/factors/reset/${id}/complete${q(c)}`, body === undefined ? {} : { body })

  const withTotp = async () => {
    const c = await euCustomer(t)
    await scaLogin(t, c)
    const e = await t.request("POST", `${V}/sca/factors${q(c)}`, { body: { type: "TOTP" } })
    await t.request("POST", `${V}/sca/factors/confirm${q(c)}`, { body: { type: "TOTP", secret: e.body.secret, code: CODE } })
    return c
  }

  it("a TOTP reset: INITIATED, LIVENESS_PASSED after the sandbox's liveness, complete clears the factor and the session; re-enrolling completes it", async () => {
    const c = await withTotp()
    const r = await startReset(c, "TOTP")
    expect(r.status).toBe(201)
    expect(r.body).toMatchObject({ resetId: expect.stringMatching(/^ScaReset:/), livenessAccessToken: expect.any(String), verificationLink: expect.stringContaining("https://") })
    expect((await status(c, r.body.resetId)).body).toMatchObject({ status: "INITIATED", factor: "TOTP", enrollmentStatus: "PENDING", completedAt: null })
    const early = await completeReset(c, r.body.resetId)
    expect([early.status, early.body.details.reason]).toEqual([400, "RESET_NOT_READY"])
    await advance(t, 10)
    expect((await status(c, r.body.resetId)).body.status).toBe("LIVENESS_PASSED")
    expect((await completeReset(c, r.body.resetId)).status).toBe(204)
    const done = (await status(c, r.body.resetId)).body
    expect(done).toMatchObject({ status: "COMPLETED", enrollmentStatus: "PENDING", completedAt: expect.any(String) })
    expect((await t.request("GET", `${V}/sca/factors${q(c)}`)).body.factors.map((f: { factor: string }) => f.factor)).toEqual(["SMS_OTP"])
    // The reset revoked the session: re-enrolling needs a new login.
    expect((await t.request("POST", `${V}/sca/factors${q(c)}`, { body: { type: "TOTP" } })).body.code).toBe("SCA_SESSION_REQUIRED")
    await scaLogin(t, c)
    const e = await t.request("POST", `${V}/sca/factors${q(c)}`, { body: { type: "TOTP" } })
    await t.request("POST", `${V}/sca/factors/confirm${q(c)}`, { body: { type: "TOTP", secret: e.body.secret, code: CODE } })
    expect((await status(c, r.body.resetId)).body.enrollmentStatus).toBe("COMPLETED")
    expect((await completeReset(c, r.body.resetId)).body.details.reason).toBe("RESET_ALREADY_COMPLETED")
  })

  it("an SMS_OTP reset needs the new mobile, which becomes the customer's phone number", async () => {
    const c = await euCustomer(t)
    const r = await startReset(c, "SMS_OTP")
    await advance(t, 10)
    expect((await status(c, r.body.resetId)).body.enrollmentStatus).toBeNull()
    const noMobile = await completeReset(c, r.body.resetId)
    expect([noMobile.status, noMobile.body.details.errors[0].field]).toEqual([400, "mobile"])
    expect((await completeReset(c, r.body.resetId, { mobile: { countryCode: "+49", number: "15112345678" } })).status).toBe(204)
    expect((await t.request("GET", `${V}/customers/${c}`)).body.phoneNumber).toBe("+4915112345678")
  })

  it("refuses: a factor not enrolled (400), a sixth start in 24 hours (429), an expired window (400), unknown ids (404), non-SCA customers (409)", async () => {
    const c = await euCustomer(t)
    expect((await startReset(c, "PASSKEY")).body.details.errors[0].field).toBe("factor")
    const ids: Array<string> = []
    for (let i = 0; i < 5; i++) ids.push((await startReset(c, "SMS_OTP")).body.resetId)
    const sixth = await startReset(c, "SMS_OTP")
    expect([sixth.status, sixth.body.code]).toEqual([429, "RATE_LIMITED"])
    expect(Number(sixth.headers.get("retry-after"))).toBeGreaterThan(23 * 3600)
    await advance(t, 31 * 60)
    expect((await status(c, ids[0]!)).body.status).toBe("EXPIRED")
    expect((await completeReset(c, ids[0]!, { mobile: { countryCode: "+49", number: "1511234567" } })).body.details.reason).toBe("RESET_EXPIRED")
    const other = await euCustomer(t)
    // Another customer's reset is not found under this one.
    const foreign = await status(other, ids[1]!)
    expect([foreign.status, foreign.body.code, foreign.body.details.resource]).toEqual([404, "REFERENCE_NOT_FOUND", "ScaReset"])
    expect((await completeReset(c, "ScaReset:00000000-0000-4000-8000-000000000000")).status).toBe(404)
    await advance(t, 24 * 3600)
    expect((await startReset(c, "SMS_OTP")).status).toBe(201)
    const us = await usCustomer(t)
    for (const r of [await startReset(us, "SMS_OTP"), await status(us, ids[1]!), await completeReset(us, ids[1]!)]) expect(r.status).toBe(409)
    expect((await startReset("Customer:00000000-0000-4000-8000-000000000000", "SMS_OTP")).body.code).toBe("USER_NOT_FOUND")
  })
})
