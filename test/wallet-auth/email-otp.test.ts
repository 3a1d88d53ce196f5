import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { newKeyPair, readTargetBundle, sealOtp, stamp } from "@tessera/core/testing"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { loginWithOtp, newWallet, retry, V } from "../support/wallet.ts"

describe.each<StoreKind>(["memory", "sqlite"])("email OTP login over HTTP (%s store)", (kind) => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer(kind)
  })
  afterAll(() => t.close())

  it("challenge → sealed 000000 → 202 → stamped retry → 200 Session with no key, listed by GET /auth/sessions", async () => {
    const w = await newWallet(t)
    const ch = await t.request("POST", `${V}/auth/credentials/${w.emailCredentialId}/challenge`)
    expect(ch.body).toMatchObject({ id: w.emailCredentialId, type: "EMAIL_OTP", accountId: w.accountId })
    const target = readTargetBundle(ch.body.otpEncryptionTargetBundle)
    expect(target.targetPublic).toMatch(/^04[0-9a-f]{128}$/)
    expect(target.signatureValid).toBe(true)
    const tek = newKeyPair()
    const body = { type: "EMAIL_OTP", encryptedOtpBundle: sealOtp(ch.body.otpEncryptionTargetBundle, "000000", tek) }
    const first = await t.request("POST", `${V}/auth/credentials/${w.emailCredentialId}/verify`, { body })
    expect(first.status).toBe(202)
    expect(first.body.requestId).toMatch(/^Request:[0-9a-f-]{36}$/)
    expect(first.body.payloadToSign.split(".")).toHaveLength(3)
    const done = await retry(t, "POST", `${V}/auth/credentials/${w.emailCredentialId}/verify`, first, tek, body)
    expect(done.status).toBe(200)
    expect(done.body.id).toMatch(/^Session:/)
    expect(done.body).not.toHaveProperty("encryptedSessionSigningKey")
    expect(Date.parse(done.body.expiresAt) - Date.parse(done.body.createdAt)).toBe(15 * 60_000)
    const sessions = await t.request("GET", `${V}/auth/sessions?accountId=${w.accountId}`)
    expect(sessions.body.data.map((s: { id: string }) => s.id)).toEqual([done.body.id])
  })

  it("a wrong code is 401 UNAUTHORIZED with reason Invalid OTP code", async () => {
    const w = await newWallet(t)
    const ch = await t.request("POST", `${V}/auth/credentials/${w.emailCredentialId}/challenge`)
    const body = { type: "EMAIL_OTP", encryptedOtpBundle: sealOtp(ch.body.otpEncryptionTargetBundle, "123456", newKeyPair()) }
    const r = await t.request("POST", `${V}/auth/credentials/${w.emailCredentialId}/verify`, { body })
    expect(r.status).toBe(401)
    expect(r.body).toMatchObject({ code: "UNAUTHORIZED", reason: "Invalid OTP code", details: { reason: "Invalid OTP code" } })
  })

  it("the retry must be stamped by the TEK itself: another key, the legacy literal, a reused id all fail", async () => {
    const w = await newWallet(t)
    const ch = await t.request("POST", `${V}/auth/credentials/${w.emailCredentialId}/challenge`)
    const tek = newKeyPair()
    const body = { type: "EMAIL_OTP", encryptedOtpBundle: sealOtp(ch.body.otpEncryptionTargetBundle, "000000", tek) }
    const path = `${V}/auth/credentials/${w.emailCredentialId}/verify`
    const first = await t.request("POST", path, { body })
    expect((await retry(t, "POST", path, first, newKeyPair(), body)).body.code).toBe("WALLET_SIGNATURE_INVALID")
    expect((await retry(t, "POST", path, first, "sandbox-valid-signature", body)).body.code).toBe("WALLET_SIGNATURE_MALFORMED")
    expect((await retry(t, "POST", path, first, tek, body)).status).toBe(200)
    const again = await retry(t, "POST", path, first, tek, body)
    expect(again.status).toBe(401)
    expect(again.body.details.reason).toBe("REQUEST_ID_ALREADY_USED")
    // The OTP was spent by the first login: the same bundle cannot start another.
    expect((await t.request("POST", path, { body })).body.reason).toBe("No pending OTP for this credential")
  })

  it("re-issuing a challenge within 30 s is 429 with Retry-After", async () => {
    const w = await newWallet(t)
    expect((await t.request("POST", `${V}/auth/credentials/${w.emailCredentialId}/challenge`)).status).toBe(200)
    const again = await t.request("POST", `${V}/auth/credentials/${w.emailCredentialId}/challenge`)
    expect(again.status).toBe(429)
    expect(again.body.code).toBe("RATE_LIMITED")
    expect(Number(again.headers.get("retry-after"))).toBeGreaterThanOrEqual(1)
  })

  it("a stamp over another payload, headers missing, or a malformed stamp get their 401 codes", async () => {
    const w = await newWallet(t)
    const { key } = await loginWithOtp(t, w.emailCredentialId)
    const path = `${V}/internal-accounts/${w.accountId}`
    const first = await t.request("PATCH", path, { body: { privateEnabled: true } })
    expect(first.status).toBe(202)
    const only = (h: Record<string, string>) => t.request("PATCH", path, { body: { privateEnabled: true }, headers: h })
    expect((await only({ "service-wallet-signature": stamp(key.privateKey, first.body.payloadToSign) })).body.code).toBe("REQUEST_ID_MISSING")
    expect((await only({ "request-id": first.body.requestId })).body.code).toBe("WALLET_SIGNATURE_MISSING")
    expect((await only({ "request-id": first.body.requestId, "service-wallet-signature": "%%%" })).body.code).toBe("WALLET_SIGNATURE_MALFORMED")
    const other = { "request-id": first.body.requestId, "service-wallet-signature": stamp(key.privateKey, first.body.payloadToSign + " ") }
    expect((await only(other)).body.code).toBe("WALLET_SIGNATURE_INVALID")
    const mismatch = await t.request("PATCH", path, {
      body: { privateEnabled: false },
      headers: { "request-id": first.body.requestId, "service-wallet-signature": stamp(key.privateKey, first.body.payloadToSign) }
    })
    expect(mismatch.body.code).toBe("WALLET_SIGNATURE_BODY_MISMATCH")
    // The reference's header name is an alias.
    const ok = await only({ "request-id": first.body.requestId, "grid-wallet-signature": stamp(key.privateKey, first.body.payloadToSign) })
    expect(ok.status).toBe(200)
    expect(ok.body.privateEnabled).toBe(true)
  })
})
