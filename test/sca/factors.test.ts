import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SoftwarePasskey } from "@tessera/core/testing"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { CODE, euCustomer, ORIGIN, q, RP_ID, scaLogin, usCustomer, V } from "./support.ts"

/** The UTF-8 string a PASSKEY login's options ask the authenticator to sign. */
const signedString = (options: { challenge: string }) => Buffer.from(options.challenge, "base64url").toString("utf8")

describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("SCA factors over HTTP (%s store)", (kind) => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer(kind, { clock: "virtual" })
  })
  afterAll(() => t.close())

  const factors = async (c: string) => (await t.request("GET", `${V}/sca/factors${q(c)}`)).body.factors
  const enroll = (c: string, type: string) => t.request("POST", `${V}/sca/factors${q(c)}`, { body: { type } })
  const confirm = (c: string, body: Record<string, unknown>) => t.request("POST", `${V}/sca/factors/confirm${q(c)}`, { body })

  it("SMS_OTP is always there; a TOTP enrollment is confirmed with the sandbox code and answers recovery codes once", async () => {
    const c = await euCustomer(t)
    expect(await factors(c)).toEqual([{ factor: "SMS_OTP", name: "Verified phone" }])
    await scaLogin(t, c)
    const start = await enroll(c, "TOTP")
    expect(start.body).toMatchObject({ type: "TOTP", secret: expect.stringMatching(/^[A-Z2-7]+$/), totpUri: expect.stringMatching(/^otpauth:\/\/totp\//) })
    expect(start.body.secretBase32Encoded).toBe(start.body.secret)
    // Not enrolled until confirmed.
    expect((await factors(c)).map((f: { factor: string }) => f.factor)).toEqual(["SMS_OTP"])
    const wrong = await confirm(c, { type: "TOTP", secret: start.body.secret, code: "000000" })
    expect([wrong.status, wrong.body.details.errors[0].field]).toEqual([400, "code"])
    const otherSecret = await confirm(c, { type: "TOTP", secret: "AAAA", code: CODE })
    expect([otherSecret.status, otherSecret.body.details.errors[0].field]).toEqual([400, "secret"])
    const ok = await confirm(c, { type: "TOTP", secret: start.body.secret, code: CODE })
    expect(ok.status).toBe(200)
    expect(ok.body.type).toBe("TOTP")
    expect(ok.body.recoveryCodes).toHaveLength(4)
    expect(new Set(ok.body.recoveryCodes).size).toBe(4)
    expect((await factors(c)).map((f: { factor: string }) => f.factor)).toEqual(["SMS_OTP", "TOTP"])
    const second = await enroll(c, "TOTP")
    expect([second.status, second.body.code, second.body.details.reason]).toEqual([409, "CONFLICT", "TOTP_ALREADY_ENROLLED"])
  })

  it("a passkey is enrolled with a real WebAuthn registration, logs in with a real assertion, is one per customer, and is deleted by credentialId", async () => {
    const c = await euCustomer(t)
    await scaLogin(t, c)
    const start = await enroll(c, "PASSKEY")
    expect(start.body).toMatchObject({ type: "PASSKEY", allowedOrigins: [ORIGIN], relyingPartyId: RP_ID, options: { rp: { id: RP_ID } } })
    const passkey = new SoftwarePasskey({ origin: ORIGIN, rpId: RP_ID })
    // A credential for another challenge, or from another origin, is refused.
    const stranger = new SoftwarePasskey({ origin: "https://evil.example", rpId: "evil.example" })
    const foreign = await confirm(c, { type: "PASSKEY", origin: "https://evil.example", credential: stranger.register(start.body.options.challenge) })
    expect([foreign.status, foreign.body.details.errors[0].field]).toEqual([400, "credential"])
    const replay = await confirm(c, { type: "PASSKEY", origin: ORIGIN, credential: passkey.register("b3RoZXItY2hhbGxlbmdl") })
    expect(replay.status).toBe(400)
    const reg = passkey.register(start.body.options.challenge)
    const ok = await confirm(c, { type: "PASSKEY", origin: ORIGIN, credential: { id: reg.credentialId, response: { clientDataJSON: reg.clientDataJson, attestationObject: reg.attestationObject } } })
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    expect(ok.body).toEqual({ type: "PASSKEY", factor: { factor: "PASSKEY", credentialId: passkey.credentialId, name: "Passkey" } })
    expect((await factors(c)).find((f: { factor: string }) => f.factor === "PASSKEY").credentialId).toBe(passkey.credentialId)
    const again = await enroll(c, "PASSKEY")
    expect([again.status, again.body.code]).toEqual([409, "PASSKEY_ALREADY_ENROLLED"])

    // Log in with it: the assertion signs the challenge the options carry.
    const login = await t.request("POST", `${V}/sca/login/start${q(c)}`, { body: { factor: "PASSKEY" } })
    expect(login.body).toMatchObject({ factor: "PASSKEY", allowedOrigins: [ORIGIN], relyingPartyId: RP_ID, passkeyOptions: { allowCredentials: [{ id: passkey.credentialId }] } })
    const completeWith = (passkeyAssertion: unknown, origin = ORIGIN) =>
      t.request("POST", `${V}/sca/login/complete${q(c)}`, { body: { factor: "PASSKEY", endUserIpAddress: "203.0.113.42", passkeyAssertion, origin } })
    const forged = await completeWith(stranger.assert(signedString(login.body.passkeyOptions)))
    expect([forged.status, forged.body.details.reason]).toEqual([400, "SCA_PROOF_INVALID"])
    const done = await completeWith(passkey.assert(signedString(login.body.passkeyOptions)))
    expect(done.status, JSON.stringify(done.body)).toBe(200)

    const missing = await t.request("DELETE", `${V}/sca/factors/nope${q(c)}`)
    expect([missing.status, missing.body.code, missing.body.details.resource]).toEqual([404, "REFERENCE_NOT_FOUND", "ScaFactor"])
    const deleted = await t.request("DELETE", `${V}/sca/factors/${passkey.credentialId}${q(c)}`)
    expect(deleted.status).toBe(204)
    expect((await factors(c)).map((f: { factor: string }) => f.factor)).toEqual(["SMS_OTP"])
    expect((await enroll(c, "PASSKEY")).status).toBe(200)
  })

  it("enrolling and deleting need an SCA session (409 SCA_SESSION_REQUIRED); bad bodies are 400; unknown customers 404; non-SCA customers 409", async () => {
    const c = await euCustomer(t)
    for (const r of [await enroll(c, "TOTP"), await t.request("DELETE", `${V}/sca/factors/x${q(c)}`)]) expect([r.status, r.body.code]).toEqual([409, "SCA_SESSION_REQUIRED"])
    const noCustomer = await t.request("GET", `${V}/sca/factors`)
    expect([noCustomer.status, noCustomer.body.details.errors[0].field]).toEqual([400, "customerId"])
    const bad = await t.request("POST", `${V}/sca/factors`, { body: { type: "SMS_OTP" } })
    expect(bad.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(["customerId", "type"])
    expect((await confirm(c, { type: "TOTP" })).status).toBe(400)
    const nobody = "Customer:00000000-0000-4000-8000-000000000000"
    for (const r of [await t.request("GET", `${V}/sca/factors${q(nobody)}`), await enroll(nobody, "TOTP"), await confirm(nobody, { type: "TOTP", secret: "A", code: CODE }), await t.request("DELETE", `${V}/sca/factors/x${q(nobody)}`)])
      expect([r.status, r.body.code]).toEqual([404, "USER_NOT_FOUND"])
    const us = await usCustomer(t)
    for (const r of [await t.request("GET", `${V}/sca/factors${q(us)}`), await enroll(us, "TOTP"), await confirm(us, { type: "TOTP", secret: "A", code: CODE }), await t.request("DELETE", `${V}/sca/factors/x${q(us)}`)])
      expect([r.status, r.body.code]).toEqual([409, "CONFLICT"])
  })
})
