import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { loginWithOtp, newWallet, retry, signed, V } from "../support/wallet.ts"

describe.each<StoreKind>(["memory", "sqlite"])("changing a wallet customer's email (%s store)", (kind) => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer(kind)
  })
  afterAll(() => t.close())

  it("a signed retry changes the customer's email and the tied EMAIL_OTP credential together", async () => {
    const w = await newWallet(t)
    const { key } = await loginWithOtp(t, w.emailCredentialId)
    const email = `moved-${Math.random().toString(36).slice(2)}@example.com`
    const { final } = await signed(t, "PATCH", `${V}/customers/${w.customerId}`, key, { customerType: "INDIVIDUAL", email })
    expect(final.status).toBe(200)
    expect(final.body.email).toBe(email)
    const creds = await t.request("GET", `${V}/auth/credentials?accountId=${w.accountId}`)
    expect(creds.body.data[0]).toMatchObject({ type: "EMAIL_OTP", nickname: email })
  })

  it("409 EMAIL_OTP_EMAIL_ALREADY_EXISTS when another wallet's EMAIL_OTP uses the new email", async () => {
    const taken = `taken-${Math.random().toString(36).slice(2)}@example.com`
    await newWallet(t, taken)
    const w = await newWallet(t)
    const r = await t.request("PATCH", `${V}/customers/${w.customerId}`, { body: { customerType: "INDIVIDUAL", email: taken } })
    expect(r.status).toBe(409)
    expect(r.body.code).toBe("EMAIL_OTP_EMAIL_ALREADY_EXISTS")
  })

  it("409 EMAIL_OTP_CREDENTIAL_SET_CHANGED when the tied credential went away after the challenge", async () => {
    const w = await newWallet(t)
    const email = await loginWithOtp(t, w.emailCredentialId)
    await t.request("PATCH", `${V}/customers/${w.customerId}`, { body: { customerType: "INDIVIDUAL", phoneNumber: "+14155550199" } })
    const sms = await signed(t, "POST", `${V}/auth/credentials`, email.key, { type: "SMS_OTP", accountId: w.accountId })
    const body = { customerType: "INDIVIDUAL", email: `later-${Math.random().toString(36).slice(2)}@example.com` }
    const first = await t.request("PATCH", `${V}/customers/${w.customerId}`, { body })
    expect(first.status).toBe(202)
    // Meanwhile the EMAIL_OTP credential is revoked with an SMS session.
    const { sealOtp, newKeyPair } = await import("@tessera/core/testing")
    const tek = newKeyPair()
    const smsLogin = await signed(t, "POST", `${V}/auth/credentials/${sms.final.body.id}/verify`, tek, {
      type: "SMS_OTP",
      encryptedOtpBundle: sealOtp(sms.final.body.otpEncryptionTargetBundle, "000000", tek)
    })
    expect(smsLogin.final.status).toBe(200)
    expect((await signed(t, "DELETE", `${V}/auth/credentials/${w.emailCredentialId}`, tek)).final.status).toBe(204)
    const late = await retry(t, "PATCH", `${V}/customers/${w.customerId}`, first, tek, body)
    expect(late.status).toBe(409)
    expect(late.body.code).toBe("EMAIL_OTP_CREDENTIAL_SET_CHANGED")
    expect((await t.request("GET", `${V}/customers/${w.customerId}`)).body.email).not.toBe(body.email)
  })
})
