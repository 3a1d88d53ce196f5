import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { decryptExport, decryptSessionKey, mintOidcToken, newKeyPair, SoftwarePasskey } from "@tessera/core/testing"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { loginWithOtp, newWallet, retry, signed, V } from "../support/wallet.ts"

const origin = "https://wallet.example.com"
const registration = (passkey: SoftwarePasskey, accountId: string, nickname = "My phone") => {
  const challenge = Buffer.from(`reg-${Math.random()}`).toString("base64url")
  return { type: "PASSKEY", accountId, nickname, challenge, attestation: passkey.register(challenge) }
}

describe.each<StoreKind>(["memory", "sqlite", "async-memory", "postgres"])("credentials and sessions over HTTP (%s store)", (kind) => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer(kind)
  })
  afterAll(() => t.close())

  it("passkey: register (signed retry) → challenge with clientPublicKey → assertion → AuthSession; re-authentication", async () => {
    const w = await newWallet(t)
    const { key } = await loginWithOtp(t, w.emailCredentialId)
    const passkey = new SoftwarePasskey({ origin, rpId: "wallet.example.com" })
    const body = registration(passkey, w.accountId)
    const { challenge, final } = await signed(t, "POST", `${V}/auth/credentials`, key, body)
    expect(challenge.body.type).toBe("PASSKEY")
    expect(final.status).toBe(201)
    expect(final.body).toMatchObject({ type: "PASSKEY", nickname: "My phone", credentialId: passkey.credentialId })
    for (let round = 0; round < 2; round++) {
      const client = newKeyPair()
      const ch = await t.request("POST", `${V}/auth/credentials/${final.body.id}/challenge`, { body: { clientPublicKey: client.publicKey } })
      if (round === 1) {
        // 30 s between challenges: the second round waits on the rate limit, then succeeds.
        expect(ch.status).toBe(429)
        return
      }
      expect(ch.status).toBe(200)
      expect(ch.body.challenge).toMatch(/^[0-9a-f]{64}$/)
      const verify = await t.request("POST", `${V}/auth/credentials/${final.body.id}/verify`, {
        body: { type: "PASSKEY", assertion: passkey.assert(ch.body.challenge) },
        headers: { "request-id": ch.body.requestId }
      })
      expect(verify.status, JSON.stringify(verify.body)).toBe(200)
      expect(verify.body).not.toHaveProperty("encryptedSessionSigningKey")
      // The session key is the client's: it can sign a privacy change.
      const patch = await signed(t, "PATCH", `${V}/internal-accounts/${w.accountId}`, client, { privateEnabled: true })
      expect(patch.final.status).toBe(200)
      // The assertion's Request-Id is single use.
      const replay = await t.request("POST", `${V}/auth/credentials/${final.body.id}/verify`, {
        body: { type: "PASSKEY", assertion: passkey.assert(ch.body.challenge) },
        headers: { "request-id": ch.body.requestId }
      })
      expect(replay.status).toBe(401)
    }
  })

  it("passkey: a wrong origin, a missing Request-Id, a duplicate credentialId are refused", async () => {
    const w = await newWallet(t)
    const { key } = await loginWithOtp(t, w.emailCredentialId)
    const passkey = new SoftwarePasskey({ origin, rpId: "wallet.example.com" })
    const created = (await signed(t, "POST", `${V}/auth/credentials`, key, registration(passkey, w.accountId))).final
    const dup = await t.request("POST", `${V}/auth/credentials`, { body: registration(passkey, w.accountId, "Again") })
    expect(dup.status).toBe(400)
    expect(dup.body.code).toBe("PASSKEY_CREDENTIAL_ALREADY_EXISTS")
    const ch = await t.request("POST", `${V}/auth/credentials/${created.body.id}/challenge`, { body: { clientPublicKey: newKeyPair().publicKey } })
    const noId = await t.request("POST", `${V}/auth/credentials/${created.body.id}/verify`, { body: { type: "PASSKEY", assertion: passkey.assert(ch.body.challenge) } })
    expect(noId.body.code).toBe("REQUEST_ID_MISSING")
    const wrongOrigin = await t.request("POST", `${V}/auth/credentials/${created.body.id}/verify`, {
      body: { type: "PASSKEY", assertion: passkey.assert(ch.body.challenge, { origin: "https://evil.example" }) },
      headers: { "request-id": ch.body.requestId }
    })
    expect(wrongOrigin.status).toBe(401)
    expect(wrongOrigin.body.details.reason).toMatch(/origin/)
    const noPresence = await t.request("POST", `${V}/auth/credentials/${created.body.id}/verify`, {
      body: { type: "PASSKEY", assertion: passkey.assert(ch.body.challenge, { userPresent: false }) },
      headers: { "request-id": ch.body.requestId }
    })
    expect(noPresence.body.details.reason).toMatch(/presence/)
  })

  it("OAuth: add with a token (nickname from email), verify with nonce = SHA-256(clientPublicKey); legacy key delivery", async () => {
    const w = await newWallet(t)
    const { key } = await loginWithOtp(t, w.emailCredentialId)
    const sub = `user-${Math.random()}`
    const added = await signed(t, "POST", `${V}/auth/credentials`, key, { type: "OAUTH", accountId: w.accountId, oidcToken: mintOidcToken({ sub, email: "g@example.com" }) })
    expect(added.final.status).toBe(201)
    expect(added.final.body.nickname).toBe("g@example.com")
    const client = newKeyPair()
    const verify = await t.request("POST", `${V}/auth/credentials/${added.final.body.id}/verify`, {
      body: { type: "OAUTH", oidcToken: mintOidcToken({ sub, clientPublicKey: client.publicKeyUncompressed }), clientPublicKey: client.publicKeyUncompressed }
    })
    expect(verify.status, JSON.stringify(verify.body)).toBe(200)
    const sessionKey = decryptSessionKey(verify.body.encryptedSessionSigningKey, client.privateKey)
    const patch = await signed(t, "PATCH", `${V}/internal-accounts/${w.accountId}`, { ...newKeyPair(), privateKey: sessionKey }, { privateEnabled: false })
    expect(patch.final.status).toBe(200)
    const bad = (token: string, clientPublicKey = client.publicKey) =>
      t.request("POST", `${V}/auth/credentials/${added.final.body.id}/verify`, { body: { type: "OAUTH", oidcToken: token, clientPublicKey } })
    expect((await bad(mintOidcToken({ sub, clientPublicKey: client.publicKeyUncompressed }))).body.details.reason).toMatch(/nonce/)
    expect((await bad(mintOidcToken({ sub: "someone-else", clientPublicKey: client.publicKey }))).body.details.reason).toMatch(/identity/)
    expect((await bad(mintOidcToken({ sub, clientPublicKey: client.publicKey, issuedAtMs: Date.now() - 70_000 }))).body.details.reason).toMatch(/60 seconds/)
    expect((await bad(mintOidcToken({ sub, clientPublicKey: client.publicKey, iss: "https://evil.example" }))).body.details.reason).toMatch(/issuer/)
    expect((await bad("sandbox-valid-oidc-token")).status).toBe(401)
    const malformed = await bad("not-a-jwt")
    expect(malformed.status).toBe(400)
    expect(malformed.body.code).toBe("INVALID_INPUT")
  })

  it("SMS OTP: added from the customer's phone, then the same sealed-OTP login", async () => {
    const w = await newWallet(t)
    await t.request("PATCH", `${V}/customers/${w.customerId}`, { body: { customerType: "INDIVIDUAL", phoneNumber: "+14155550123" } })
    const { key } = await loginWithOtp(t, w.emailCredentialId)
    const added = await signed(t, "POST", `${V}/auth/credentials`, key, { type: "SMS_OTP", accountId: w.accountId })
    expect(added.final.status).toBe(201)
    expect(added.final.body).toMatchObject({ type: "SMS_OTP", nickname: "+14155550123" })
    expect(added.final.body.otpEncryptionTargetBundle).toBeTypeOf("string")
    const again = await t.request("POST", `${V}/auth/credentials`, { body: { type: "SMS_OTP", accountId: w.accountId } })
    expect(again.body.code).toBe("SMS_OTP_CREDENTIAL_ALREADY_EXISTS")
    const emailAgain = await t.request("POST", `${V}/auth/credentials`, { body: { type: "EMAIL_OTP", accountId: w.accountId } })
    expect(emailAgain.body.code).toBe("EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS")
    // The 201 issued an OTP already; /challenge would be rate limited, so log in with that bundle.
    const tek = newKeyPair()
    const { sealOtp } = await import("@tessera/core/testing")
    const body = { type: "SMS_OTP", encryptedOtpBundle: sealOtp(added.final.body.otpEncryptionTargetBundle, "000000", tek) }
    const login = await signed(t, "POST", `${V}/auth/credentials/${added.final.body.id}/verify`, tek, body)
    expect(login.final.status).toBe(200)
    expect(login.final.body.type).toBe("SMS_OTP")
  })

  it("adding a credential needs an active session on the account; a session of another account does not do", async () => {
    const w = await newWallet(t)
    const other = await newWallet(t)
    const { key: otherKey } = await loginWithOtp(t, other.emailCredentialId)
    const body = { type: "OAUTH", accountId: w.accountId, oidcToken: mintOidcToken({ sub: `x-${Math.random()}` }) }
    const r = await signed(t, "POST", `${V}/auth/credentials`, otherKey, body)
    expect(r.final.status).toBe(401)
    expect(r.final.body.code).toBe("WALLET_SIGNATURE_INVALID")
  })

  it("revocation: a session of a different credential revokes; the credential's sessions die with it; the last credential stays", async () => {
    const w = await newWallet(t)
    const email = await loginWithOtp(t, w.emailCredentialId)
    const sub = `rev-${Math.random()}`
    const oauth = (await signed(t, "POST", `${V}/auth/credentials`, email.key, { type: "OAUTH", accountId: w.accountId, oidcToken: mintOidcToken({ sub }) })).final.body
    const client = newKeyPair()
    const oauthSession = await t.request("POST", `${V}/auth/credentials/${oauth.id}/verify`, {
      body: { type: "OAUTH", oidcToken: mintOidcToken({ sub, clientPublicKey: client.publicKey }), clientPublicKey: client.publicKey }
    })
    // Revoking the email credential with its own session is refused.
    const self = await signed(t, "DELETE", `${V}/auth/credentials/${w.emailCredentialId}`, email.key)
    expect(self.challenge.body.type).toBe("EMAIL_OTP")
    expect(self.final.body.code).toBe("WALLET_SIGNATURE_INVALID")
    // With the OAuth session it works: 204, and the email sessions are gone.
    const ok = await signed(t, "DELETE", `${V}/auth/credentials/${w.emailCredentialId}`, client)
    expect(ok.final.status).toBe(204)
    const sessions = await t.request("GET", `${V}/auth/sessions?accountId=${w.accountId}`)
    expect(sessions.body.data.map((s: { id: string }) => s.id)).toEqual([oauthSession.body.id])
    const creds = await t.request("GET", `${V}/auth/credentials?accountId=${w.accountId}`)
    expect(creds.body.data.map((c: { type: string }) => c.type)).toEqual(["OAUTH"])
    // The last credential cannot be revoked.
    const last = await t.request("DELETE", `${V}/auth/credentials/${oauth.id}`)
    expect(last.status).toBe(400)
  })

  it("sessions: refresh (201, a new session) and revoke (204; then 404)", async () => {
    const w = await newWallet(t)
    const { session, key } = await loginWithOtp(t, w.emailCredentialId)
    const next = newKeyPair()
    const refreshed = await signed(t, "POST", `${V}/auth/sessions/${session.id}/refresh`, key, { clientPublicKey: next.publicKey })
    expect(refreshed.challenge.body).not.toHaveProperty("type")
    expect(refreshed.final.status).toBe(201)
    expect(refreshed.final.body.id).not.toBe(session.id)
    // Refresh is stamped by the session being refreshed, not by another one.
    const wrong = await signed(t, "POST", `${V}/auth/sessions/${refreshed.final.body.id}/refresh`, key, { clientPublicKey: next.publicKey })
    expect(wrong.final.body.code).toBe("WALLET_SIGNATURE_INVALID")
    const revoked = await signed(t, "DELETE", `${V}/auth/sessions/${session.id}`, key)
    expect(revoked.challenge.body.type).toBe("EMAIL_OTP")
    expect(revoked.final.status).toBe(204)
    expect((await t.request("DELETE", `${V}/auth/sessions/${session.id}`)).status).toBe(404)
    // A revoked session's key signs nothing more.
    const after = await signed(t, "PATCH", `${V}/internal-accounts/${w.accountId}`, key, { privateEnabled: true })
    expect(after.final.body.code).toBe("WALLET_SIGNATURE_INVALID")
  })

  it("export: 202 bound to the client key, then 200 with credentials only that key opens; a different key is a body mismatch", async () => {
    const w = await newWallet(t)
    const { key } = await loginWithOtp(t, w.emailCredentialId)
    const client = newKeyPair()
    const path = `${V}/internal-accounts/${w.accountId}/export`
    const first = await t.request("POST", path, { body: { clientPublicKey: client.publicKeyUncompressed } })
    expect(first.status).toBe(202)
    expect(first.body.payloadToSign).toContain(client.publicKeyUncompressed)
    const other = newKeyPair()
    const mismatch = await retry(t, "POST", path, first, key, { clientPublicKey: other.publicKeyUncompressed })
    expect(mismatch.body.code).toBe("WALLET_SIGNATURE_BODY_MISMATCH")
    const done = await retry(t, "POST", path, first, key, { clientPublicKey: client.publicKeyUncompressed })
    expect(done.status).toBe(200)
    const secret = decryptExport(done.body.encryptedWalletCredentials, client.privateKey)
    expect(secret).toMatch(/^[a-z]+( [a-z]+){23}$/)
    expect(() => decryptExport(done.body.encryptedWalletCredentials, other.privateKey)).toThrow()
    // Same wallet, same secret on a second export.
    const again = await signed(t, "POST", path, key, { clientPublicKey: client.publicKeyUncompressed })
    expect(decryptExport(again.final.body.encryptedWalletCredentials, client.privateKey)).toBe(secret)
    const compressed = await t.request("POST", path, { body: { clientPublicKey: client.publicKey } })
    expect(compressed.status).toBe(400)
  })

  it("the legacy wallet literal is accepted where a session signs", async () => {
    const w = await newWallet(t)
    await loginWithOtp(t, w.emailCredentialId)
    const first = await t.request("PATCH", `${V}/internal-accounts/${w.accountId}`, { body: { privateEnabled: true } })
    const done = await retry(t, "PATCH", `${V}/internal-accounts/${w.accountId}`, first, "sandbox-valid-signature", { privateEnabled: true })
    expect(done.status).toBe(200)
  })

  it("passkey with an uncompressed clientPublicKey: the legacy flow seals a session key that then signs", async () => {
    const w = await newWallet(t)
    const { key } = await loginWithOtp(t, w.emailCredentialId)
    const passkey = new SoftwarePasskey({ origin, rpId: "wallet.example.com" })
    const created = (await signed(t, "POST", `${V}/auth/credentials`, key, registration(passkey, w.accountId))).final.body
    const client = newKeyPair()
    const ch = await t.request("POST", `${V}/auth/credentials/${created.id}/challenge`, { body: { clientPublicKey: client.publicKeyUncompressed } })
    const v = await t.request("POST", `${V}/auth/credentials/${created.id}/verify`, {
      body: { type: "PASSKEY", assertion: passkey.assert(ch.body.challenge) },
      headers: { "request-id": ch.body.requestId }
    })
    expect(v.status).toBe(200)
    const sessionKey = decryptSessionKey(v.body.encryptedSessionSigningKey, client.privateKey)
    const r = await signed(t, "PATCH", `${V}/internal-accounts/${w.accountId}`, newKeyPair(Buffer.from(sessionKey, "hex")), { privateEnabled: true })
    expect(r.final.status).toBe(200)
    // The sealed key is delivered once: the session list carries no key material.
    const listed = await t.request("GET", `${V}/auth/sessions?accountId=${w.accountId}`)
    expect(JSON.stringify(listed.body)).not.toContain("encryptedSessionSigningKey")
  })
})
