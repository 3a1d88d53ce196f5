import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { advance, CODE, euCustomer, q, scaLogin, usCustomer, V } from "./support.ts"

describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("SCA login, sessions and security events over HTTP (%s store)", (kind) => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer(kind, { clock: "virtual" })
  })
  afterAll(() => t.close())

  const start = (c: string, factor = "SMS_OTP") => t.request("POST", `${V}/sca/login/start${q(c)}`, { body: { factor } })
  const complete = (c: string, body: Record<string, unknown>) => t.request("POST", `${V}/sca/login/complete${q(c)}`, { body: { endUserIpAddress: "203.0.113.42", ...body } })
  const record = (c: string, eventType: string) => t.request("POST", `${V}/sca/record-event${q(c)}`, { body: { eventType } })

  it("an SMS_OTP login with the sandbox code opens a session that expires", async () => {
    const c = await euCustomer(t)
    const s = await start(c)
    expect(s.body).toMatchObject({ factor: "SMS_OTP", challengeId: expect.stringMatching(/^ScaChallenge:/), expiresAt: expect.any(String) })
    const done = await complete(c, { factor: "SMS_OTP", challengeId: s.body.challengeId, code: CODE })
    expect(done.status).toBe(200)
    expect(done.body.status).toBe("SUCCESS")
    expect(Date.parse(done.body.sessionExpiresAt)).toBeGreaterThan(Date.parse(s.body.expiresAt) - 5 * 60_000)
    // The login challenge is single-use.
    const again = await complete(c, { factor: "SMS_OTP", challengeId: s.body.challengeId, code: CODE })
    expect([again.status, again.body.code]).toEqual([400, "INVALID_INPUT"])
  })

  it("refuses bad logins with 400: wrong code (counted), unknown factor, missing proof, wrong challengeId, expired code", async () => {
    const c = await euCustomer(t)
    const s = await start(c)
    const wrong = await complete(c, { factor: "SMS_OTP", challengeId: s.body.challengeId, code: "000000" })
    expect([wrong.status, wrong.body.details.reason]).toEqual([400, "SCA_PROOF_INVALID"])
    expect((await start(c, "TOTP")).body.details.errors[0].field).toBe("factor")
    expect((await start(c, "FACE_ID")).status).toBe(400)
    const missing = await complete(c, { factor: "SMS_OTP", challengeId: s.body.challengeId })
    expect(missing.body.details.errors[0].field).toBe("code")
    const wrongId = await complete(c, { factor: "SMS_OTP", challengeId: "ScaChallenge:00000000-0000-4000-8000-000000000000", code: CODE })
    expect(wrongId.body.details.errors[0].field).toBe("challengeId")
    // Every invalid field at once, query and body.
    const bad = await t.request("POST", `${V}/sca/login/complete`, { body: { factor: "NOPE" } })
    expect(bad.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(["customerId", "endUserIpAddress", "factor"])
    await advance(t, 301)
    const late = await complete(c, { factor: "SMS_OTP", challengeId: s.body.challengeId, code: CODE })
    expect([late.status, late.body.details.reason]).toEqual([400, "SCA_CHALLENGE_EXPIRED"])
    // The wrong code above counted as a failed login.
    expect((await record(c, "FAILED_LOGIN_ATTEMPT")).body.failedAttempts).toBe(2)
  })

  it("404 USER_NOT_FOUND for an unknown customer, 409 outside SCA regions", async () => {
    const ghost = "Customer:00000000-0000-4000-8000-000000000000"
    for (const r of [await start(ghost), await complete(ghost, { factor: "SMS_OTP", code: CODE }), await record(ghost, "FAILED_LOGIN_ATTEMPT")])
      expect([r.status, r.body.code]).toEqual([404, "USER_NOT_FOUND"])
    const us = await usCustomer(t)
    for (const r of [await start(us), await complete(us, { factor: "SMS_OTP", code: CODE }), await record(us, "FAILED_LOGIN_ATTEMPT")])
      expect([r.status, r.body.code, r.body.details.reason]).toEqual([409, "CONFLICT", "SCA_NOT_REQUIRED"])
  })

  it("failed logins escalate the lockout (5 → 15 min … 9 → suspended); a locked login is 423; a password reset lifts it", async () => {
    const c = await euCustomer(t)
    const seen: Array<unknown> = []
    for (let i = 1; i <= 4; i++) seen.push((await record(c, "FAILED_LOGIN_ATTEMPT")).body.lockedUntil)
    expect(seen).toEqual([null, null, null, null])
    const fifth = await record(c, "FAILED_LOGIN_ATTEMPT")
    expect(fifth.body).toMatchObject({ eventType: "FAILED_LOGIN_ATTEMPT", failedAttempts: 5, suspended: false })
    const lockedFor = Date.parse(fifth.body.lockedUntil) - Date.now()
    expect(lockedFor).toBeGreaterThan(14 * 60_000)
    const s = await start(c)
    const locked = await complete(c, { factor: "SMS_OTP", challengeId: s.body.challengeId, code: CODE })
    expect([locked.status, locked.body.code, locked.body.details.failedAttempts]).toEqual([423, "ACCOUNT_LOCKED", 5])
    for (let i = 6; i <= 9; i++) await record(c, "FAILED_LOGIN_ATTEMPT")
    const suspended = await record(c, "FAILED_LOGIN_ATTEMPT")
    expect(suspended.body).toMatchObject({ failedAttempts: 10, suspended: true, lockedUntil: null })
    const reset = await record(c, "RESET_PASSWORD_COMPLETED")
    expect(reset.body).toEqual({ eventType: "RESET_PASSWORD_COMPLETED", suspended: false, lockedUntil: null, failedAttempts: 0 })
    expect((await record(c, "SOMETHING")).status).toBe(400)
    await scaLogin(t, c)
  })

  it("a password reset revokes the session", async () => {
    const c = await euCustomer(t)
    await scaLogin(t, c)
    const acctFactors = await t.request("POST", `${V}/sca/factors${q(c)}`, { body: { type: "TOTP" } })
    expect(acctFactors.status).toBe(200)
    await record(c, "RESET_PASSWORD_COMPLETED")
    const after = await t.request("POST", `${V}/sca/factors${q(c)}`, { body: { type: "TOTP" } })
    expect([after.status, after.body.code]).toEqual([409, "SCA_SESSION_REQUIRED"])
    // The enrollment started before the reset cannot be finished without a new login.
    const confirmed = await t.request("POST", `${V}/sca/factors/confirm${q(c)}`, { body: { type: "TOTP", secret: acctFactors.body.secret, code: "123456" } })
    expect([confirmed.status, confirmed.body.code]).toEqual([409, "SCA_SESSION_REQUIRED"])
  })

  it("a TOTP login uses the authenticator's code (sandbox 123456) and needs no challengeId", async () => {
    const c = await euCustomer(t)
    await scaLogin(t, c)
    const enroll = await t.request("POST", `${V}/sca/factors${q(c)}`, { body: { type: "TOTP" } })
    await t.request("POST", `${V}/sca/factors/confirm${q(c)}`, { body: { type: "TOTP", secret: enroll.body.secret, code: CODE } })
    expect((await start(c, "TOTP")).body).toEqual({ factor: "TOTP" })
    expect((await complete(c, { factor: "TOTP", code: CODE })).body.status).toBe("SUCCESS")
  })
})
