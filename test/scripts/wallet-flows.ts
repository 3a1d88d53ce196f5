// The spec's wallet flows against a running Tessera server, using only fetch and the client
// toolkit: `npx tsx scripts/wallet-flows.ts http://127.0.0.1:4010/2025-10-13 [clientId] [secret]`.
// Start the server with TESSERA_CLOCK=virtual so the passkey re-authentication need not wait 30 s.
import { decryptExport, decryptSessionKey, mintOidcToken, newKeyPair, sealOtp, SoftwarePasskey, stamp, type KeyPair } from "@tessera/core/testing"

export const runWalletFlows = async (base: string, clientId = "sandbox-client-id", secret = "sandbox-client-secret") => {
  const auth = `Basic ${Buffer.from(`${clientId}:${secret}`).toString("base64")}`
  const log: Array<string> = []
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(base + path, {
      method,
      headers: { authorization: auth, ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const text = await res.text()
    return { status: res.status, body: text === "" ? undefined : JSON.parse(text) }
  }
  const expect = (what: string, ok: boolean, detail: unknown) => {
    if (!ok) throw new Error(`${what}: ${JSON.stringify(detail)}`)
    log.push(`ok  ${what}`)
  }
  const expectStatus = (what: string, r: { status: number; body: any }, status: number, code?: string) =>
    expect(what, r.status === status && (code === undefined || r.body?.code === code), r)
  const clock = await call("GET", "/sandbox/clock")
  const virtual = clock.status === 200 && clock.body.mode === "virtual"
  const serverNow = async () => (clock.status === 200 ? Date.parse((await call("GET", "/sandbox/clock")).body.now) : Date.now())
  const waitOut = async (seconds: number) =>
    virtual ? void (await call("POST", "/sandbox/clock/advance", { seconds })) : await new Promise((r) => setTimeout(r, seconds * 1000))
  const signed = async (method: string, path: string, key: KeyPair | string, body?: unknown) => {
    const first = await call(method, path, body)
    if (first.status !== 202) return first
    const signature = typeof key === "string" ? key : stamp(key.privateKey, first.body.payloadToSign)
    return call(method, path, body, { "service-wallet-signature": signature, "request-id": first.body.requestId })
  }

  // A customer: its Global account comes with an EMAIL_OTP credential.
  const customer = await call("POST", "/customers", { customerType: "INDIVIDUAL", fullName: "Flow Tester", email: `flow-${Date.now()}@example.com`, phoneNumber: "+14155550142" })
  expectStatus("create customer", customer, 201)
  const account = (await call("GET", `/customers/internal-accounts?customerId=${customer.body.id}`)).body.data[0].id as string
  const emailId = (await call("GET", `/auth/credentials?accountId=${account}`)).body.data[0].id as string

  // 1. Email OTP.
  const ch = await call("POST", `/auth/credentials/${emailId}/challenge`)
  expectStatus("email OTP challenge", ch, 200)
  const tek = newKeyPair()
  const otpBody = { type: "EMAIL_OTP", encryptedOtpBundle: sealOtp(ch.body.otpEncryptionTargetBundle, "000000", tek) }
  const emailSession = await signed("POST", `/auth/credentials/${emailId}/verify`, tek, otpBody)
  expectStatus("email OTP login (202 → stamped retry → 200 Session)", emailSession, 200)

  // 2. Passkey: register with the email session, then challenge and assert.
  const passkey = new SoftwarePasskey({ origin: "https://flows.example.com", rpId: "flows.example.com" })
  const regChallenge = Buffer.from(`reg-${Date.now()}`).toString("base64url")
  const reg = await signed("POST", "/auth/credentials", tek, { type: "PASSKEY", accountId: account, nickname: "Flow key", challenge: regChallenge, attestation: passkey.register(regChallenge) })
  expectStatus("register passkey", reg, 201)
  const passkeyLogin = async () => {
    const client = newKeyPair()
    const pc = await call("POST", `/auth/credentials/${reg.body.id}/challenge`, { clientPublicKey: client.publicKey })
    expectStatus("passkey challenge", pc, 200)
    const v = await call("POST", `/auth/credentials/${reg.body.id}/verify`, { type: "PASSKEY", assertion: passkey.assert(pc.body.challenge) }, { "request-id": pc.body.requestId })
    expectStatus("passkey login", v, 200)
    return { session: v.body, key: client }
  }
  const pk1 = await passkeyLogin()
  await waitOut(31)
  const pk2 = await passkeyLogin()
  expect("re-authentication gives a new session", pk1.session.id !== pk2.session.id, [pk1.session.id, pk2.session.id])

  // 3. OAuth, legacy key delivery (uncompressed clientPublicKey).
  const sub = `flow-${Date.now()}`
  const oauth = await signed("POST", "/auth/credentials", pk2.key, { type: "OAUTH", accountId: account, oidcToken: mintOidcToken({ sub, issuedAtMs: await serverNow() }) })
  expectStatus("add OAuth credential", oauth, 201)
  const legacyClient = newKeyPair()
  const ov = await call("POST", `/auth/credentials/${oauth.body.id}/verify`, {
    type: "OAUTH",
    oidcToken: mintOidcToken({ sub, issuedAtMs: await serverNow(), clientPublicKey: legacyClient.publicKeyUncompressed }),
    clientPublicKey: legacyClient.publicKeyUncompressed
  })
  expectStatus("OAuth login", ov, 200)
  const oauthKey = { ...legacyClient, privateKey: decryptSessionKey(ov.body.encryptedSessionSigningKey, legacyClient.privateKey) }

  // 4. SMS OTP, added with the OAuth session.
  const sms = await signed("POST", "/auth/credentials", oauthKey, { type: "SMS_OTP", accountId: account })
  expectStatus("add SMS OTP credential", sms, 201)
  const smsTek = newKeyPair()
  const smsLogin = await signed("POST", `/auth/credentials/${sms.body.id}/verify`, smsTek, { type: "SMS_OTP", encryptedOtpBundle: sealOtp(sms.body.otpEncryptionTargetBundle, "000000", smsTek) })
  expectStatus("SMS OTP login", smsLogin, 200)

  // 5. Revocation: the email credential, stamped by a passkey session; its sessions go with it.
  expectStatus("revoking with a session of the same credential is refused", await signed("DELETE", `/auth/credentials/${emailId}`, tek), 401, "WALLET_SIGNATURE_INVALID")
  expectStatus("revoke the email credential", await signed("DELETE", `/auth/credentials/${emailId}`, pk2.key), 204)
  const live = (await call("GET", `/auth/sessions?accountId=${account}`)).body.data.map((s: { id: string }) => s.id)
  expect("the email session died with its credential", !live.includes(emailSession.body.id), live)

  // 6. Refresh, session revoke, export.
  const next = newKeyPair()
  const refreshed = await signed("POST", `/auth/sessions/${pk2.session.id}/refresh`, pk2.key, { clientPublicKey: next.publicKey })
  expectStatus("refresh a session", refreshed, 201)
  expectStatus("revoke a session", await signed("DELETE", `/auth/sessions/${pk1.session.id}`, next), 204)
  const exportKey = newKeyPair()
  const exported = await signed("POST", `/internal-accounts/${account}/export`, next, { clientPublicKey: exportKey.publicKeyUncompressed })
  expectStatus("export the wallet", exported, 200)
  expect("the export opens with the client key", decryptExport(exported.body.encryptedWalletCredentials, exportKey.privateKey).length > 0, "")

  // 7. Negative cases of the signed retry.
  const first = await call("PATCH", `/internal-accounts/${account}`, { privateEnabled: true })
  const sig = stamp(next.privateKey, first.body.payloadToSign)
  expectStatus("signature without Request-Id", await call("PATCH", `/internal-accounts/${account}`, { privateEnabled: true }, { "service-wallet-signature": sig }), 401, "REQUEST_ID_MISSING")
  expectStatus("Request-Id without signature", await call("PATCH", `/internal-accounts/${account}`, { privateEnabled: true }, { "request-id": first.body.requestId }), 401, "WALLET_SIGNATURE_MISSING")
  expectStatus("malformed signature", await call("PATCH", `/internal-accounts/${account}`, { privateEnabled: true }, { "request-id": first.body.requestId, "service-wallet-signature": "x" }), 401, "WALLET_SIGNATURE_MALFORMED")
  expectStatus("different body", await call("PATCH", `/internal-accounts/${account}`, { privateEnabled: false }, { "request-id": first.body.requestId, "service-wallet-signature": sig }), 401, "WALLET_SIGNATURE_BODY_MISMATCH")
  expectStatus("foreign key", await call("PATCH", `/internal-accounts/${account}`, { privateEnabled: true }, { "request-id": first.body.requestId, "service-wallet-signature": stamp(newKeyPair().privateKey, first.body.payloadToSign) }), 401, "WALLET_SIGNATURE_INVALID")
  expectStatus("valid retry", await call("PATCH", `/internal-accounts/${account}`, { privateEnabled: true }, { "request-id": first.body.requestId, "service-wallet-signature": sig }), 200)
  expectStatus("reused Request-Id", await call("PATCH", `/internal-accounts/${account}`, { privateEnabled: true }, { "request-id": first.body.requestId, "service-wallet-signature": sig }), 401, "UNAUTHORIZED")
  return log
}

if (process.argv[1]?.endsWith("wallet-flows.ts")) {
  const [base, id, secret] = process.argv.slice(2)
  runWalletFlows(base ?? "http://127.0.0.1:4010/2025-10-13", id, secret).then(
    (log) => console.log(log.join("\n") + `\n${log.length} checks passed`),
    (e: Error) => {
      console.error(`FAILED: ${e.message}`)
      process.exit(1)
    }
  )
}
