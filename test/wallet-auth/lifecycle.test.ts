import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { mintOidcToken, newKeyPair, stamp } from "@tessera/core/testing"
import { startTestServer, type TestServer } from "../support/server.ts"
import { loginWithOtp, newWallet, retry, V } from "../support/wallet.ts"

describe("expiry by the clock (virtual clock)", () => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer("memory", { clock: "virtual" })
  })
  afterAll(() => t.close())
  const advance = (seconds: number) => t.request("POST", `${V}/sandbox/clock/advance`, { body: { seconds } })
  // Tokens are minted at the server's (virtual) time: the sandbox accepts them for 60 s.
  const serverNow = async () => Date.parse((await t.request("GET", `${V}/sandbox/clock`)).body.now)

  it("a signed-retry challenge expires after 5 minutes", async () => {
    const w = await newWallet(t)
    const { key } = await loginWithOtp(t, w.emailCredentialId)
    const path = `${V}/internal-accounts/${w.accountId}`
    const first = await t.request("PATCH", path, { body: { privateEnabled: true } })
    expect(Date.parse(first.body.expiresAt) - Date.parse((await t.request("GET", `${V}/sandbox/clock`)).body.now)).toBe(300_000)
    await advance(299)
    const second = await t.request("PATCH", path, { body: { privateEnabled: true } })
    await advance(1)
    const late = await retry(t, "PATCH", path, first, key, { privateEnabled: true })
    expect(late.status).toBe(401)
    expect(late.body.details.reason).toBe("CHALLENGE_EXPIRED")
    expect((await retry(t, "PATCH", path, second, key, { privateEnabled: true })).status).toBe(200)
  })

  it("a session stops signing after 15 minutes and leaves GET /auth/sessions", async () => {
    const w = await newWallet(t)
    const { key } = await loginWithOtp(t, w.emailCredentialId)
    await advance(15 * 60 - 1)
    expect((await t.request("GET", `${V}/auth/sessions?accountId=${w.accountId}`)).body.data).toHaveLength(1)
    const first = await t.request("PATCH", `${V}/internal-accounts/${w.accountId}`, { body: { privateEnabled: true } })
    await advance(1)
    expect((await t.request("GET", `${V}/auth/sessions?accountId=${w.accountId}`)).body.data).toHaveLength(0)
    const late = await retry(t, "PATCH", `${V}/internal-accounts/${w.accountId}`, first, key, { privateEnabled: true })
    expect(late.body.code).toBe("WALLET_SIGNATURE_INVALID")
  })

  it("an OTP expires after 5 minutes; a challenge may be re-issued after 30 s", async () => {
    const w = await newWallet(t)
    const { sealOtp } = await import("@tessera/core/testing")
    const ch = await t.request("POST", `${V}/auth/credentials/${w.emailCredentialId}/challenge`)
    await advance(29)
    expect((await t.request("POST", `${V}/auth/credentials/${w.emailCredentialId}/challenge`)).headers.get("retry-after")).toBe("1")
    await advance(5 * 60 - 29)
    const body = { type: "EMAIL_OTP", encryptedOtpBundle: sealOtp(ch.body.otpEncryptionTargetBundle, "000000", newKeyPair()) }
    const late = await t.request("POST", `${V}/auth/credentials/${w.emailCredentialId}/verify`, { body })
    expect(late.body.reason).toBe("No pending OTP for this credential")
  })

  it("PROCESSING: identical re-sends answer 200 PROCESSING until the hold passes, then 201; the credential is created once", async () => {
    const w = await newWallet(t)
    const { key } = await loginWithOtp(t, w.emailCredentialId)
    const hold = await t.request("POST", `${V}/sandbox/internal-accounts/${w.accountId}/processing`, { body: { operations: 1, seconds: 10 } })
    expect(hold.status).toBe(200)
    const body = { type: "OAUTH", accountId: w.accountId, oidcToken: mintOidcToken({ sub: "held-user", issuedAtMs: await serverNow() }) }
    const first = await t.request("POST", `${V}/auth/credentials`, { body })
    const headers = { "service-wallet-signature": stamp(key.privateKey, first.body.payloadToSign), "request-id": first.body.requestId }
    const resend = () => t.request("POST", `${V}/auth/credentials`, { body, headers })
    for (const _ of [1, 2]) {
      const r = await resend()
      expect(r.status).toBe(200)
      expect(r.body).toMatchObject({ status: "PROCESSING" })
    }
    // A different stamp cannot ride on the held request id.
    const other = await t.request("POST", `${V}/auth/credentials`, {
      body,
      headers: { ...headers, "service-wallet-signature": stamp(newKeyPair().privateKey, first.body.payloadToSign) }
    })
    expect(other.status).toBe(401)
    await advance(10)
    const settled = await resend()
    expect(settled.status).toBe(201)
    expect(settled.body.type).toBe("OAUTH")
    const creds = await t.request("GET", `${V}/auth/credentials?accountId=${w.accountId}`)
    expect(creds.body.data.filter((c: { type: string }) => c.type === "OAUTH")).toHaveLength(1)
    expect((await resend()).status).toBe(401)
  })

  it("PROCESSING: the service reconciles on its own; the settled credential shows in GET /auth/credentials", async () => {
    const w = await newWallet(t)
    const { key } = await loginWithOtp(t, w.emailCredentialId)
    await t.request("POST", `${V}/sandbox/processing`, { body: { operations: 1, seconds: 5 } })
    const body = { type: "OAUTH", accountId: w.accountId, oidcToken: mintOidcToken({ sub: "reconciled-user", issuedAtMs: await serverNow() }) }
    const first = await t.request("POST", `${V}/auth/credentials`, { body })
    const headers = { "service-wallet-signature": stamp(key.privateKey, first.body.payloadToSign), "request-id": first.body.requestId }
    expect((await t.request("POST", `${V}/auth/credentials`, { body, headers })).body.status).toBe("PROCESSING")
    const types = async () => (await t.request("GET", `${V}/auth/credentials?accountId=${w.accountId}`)).body.data.map((c: { type: string }) => c.type)
    expect(await types()).toEqual(["EMAIL_OTP"])
    await advance(5)
    expect(await types()).toEqual(["EMAIL_OTP", "OAUTH"])
    // The identical re-send now gets the settled answer, not a second credential.
    const again = await t.request("POST", `${V}/auth/credentials`, { body, headers })
    expect(again.status).toBe(201)
    expect(await types()).toEqual(["EMAIL_OTP", "OAUTH"])
  })

  it("PROCESSING on export: the credentials come only with the re-send after the hold, never by reconciliation", async () => {
    const { decryptExport } = await import("@tessera/core/testing")
    const w = await newWallet(t)
    const { key } = await loginWithOtp(t, w.emailCredentialId)
    await t.request("POST", `${V}/sandbox/internal-accounts/${w.accountId}/processing`, { body: { operations: 1, seconds: 3 } })
    const client = newKeyPair()
    const body = { clientPublicKey: client.publicKeyUncompressed }
    const path = `${V}/internal-accounts/${w.accountId}/export`
    const first = await t.request("POST", path, { body })
    const headers = { "service-wallet-signature": stamp(key.privateKey, first.body.payloadToSign), "request-id": first.body.requestId }
    expect((await t.request("POST", path, { body, headers })).body.status).toBe("PROCESSING")
    await advance(3)
    await t.request("GET", `${V}/auth/credentials?accountId=${w.accountId}`) // reconciliation skips export
    const done = await t.request("POST", path, { body, headers })
    expect(done.status).toBe(200)
    expect(decryptExport(done.body.encryptedWalletCredentials, client.privateKey).split(" ")).toHaveLength(24)
    expect((await t.request("POST", path, { body, headers })).status).toBe(401)
  })
})
