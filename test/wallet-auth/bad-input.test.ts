import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bytesToBase64Url, utf8 } from "@tessera/core/crypto"
import { newKeyPair, SoftwarePasskey } from "@tessera/core/testing"
import { startTestServer, type RequestOptions, type TestServer } from "../support/server.ts"
import { loginWithOtp, newWallet, V, type Wallet } from "../support/wallet.ts"

interface Case {
  readonly name: string
  readonly method: string
  readonly path: (w: Wallet) => string
  readonly options?: (w: Wallet) => RequestOptions
  readonly status: number
  readonly code: string
  readonly fields?: ReadonlyArray<string>
}

const UNKNOWN_ACCOUNT = "InternalAccount:00000000-0000-4000-8000-000000000000"
const UNKNOWN_REQUEST = "Request:00000000-0000-4000-8000-000000000000"
const pk = new SoftwarePasskey({ origin: "https://w.example.com", rpId: "w.example.com" })
const goodAttestation = pk.register("Y2hhbGxlbmdl")

const create = (name: string, body: (w: Wallet) => unknown, status = 400, code = "INVALID_INPUT", fields?: ReadonlyArray<string>): Case => ({
  name: `POST /auth/credentials: ${name}`,
  method: "POST",
  path: () => `${V}/auth/credentials`,
  options: (w) => ({ body: body(w) }),
  status,
  code,
  ...(fields ? { fields } : {})
})

const verify = (name: string, body: unknown, status = 400, code = "INVALID_INPUT", headers?: Record<string, string>): Case => ({
  name: `POST verify: ${name}`,
  method: "POST",
  path: (w) => `${V}/auth/credentials/${w.emailCredentialId}/verify`,
  options: () => ({ body, ...(headers ? { headers } : {}) }),
  status,
  code
})

const patchAccount = (name: string, headers: Record<string, string>, code: string, body: unknown = { privateEnabled: true }): Case => ({
  name: `PATCH internal account: ${name}`,
  method: "PATCH",
  path: (w) => `${V}/internal-accounts/${w.accountId}`,
  options: () => ({ body, headers }),
  status: code === "INVALID_INPUT" ? 400 : 401,
  code
})

const cases: ReadonlyArray<Case> = [
  create("body is an array", () => [1], 400, "INVALID_INPUT", ["body"]),
  create("body is null", () => null, 400, "INVALID_INPUT", ["body"]),
  create("no type", (w) => ({ accountId: w.accountId }), 400, "INVALID_INPUT", ["type"]),
  create("unknown type", (w) => ({ type: "PASSWORD", accountId: w.accountId }), 400, "INVALID_INPUT", ["type"]),
  create("accountId malformed", () => ({ type: "EMAIL_OTP", accountId: "acct-1" }), 400, "INVALID_INPUT", ["accountId"]),
  create("accountId missing", () => ({ type: "SMS_OTP" }), 400, "INVALID_INPUT", ["accountId"]),
  create("accountId unknown", () => ({ type: "SMS_OTP", accountId: UNKNOWN_ACCOUNT }), 404, "REFERENCE_NOT_FOUND"),
  create("OAUTH without token", (w) => ({ type: "OAUTH", accountId: w.accountId }), 400, "INVALID_INPUT", ["oidcToken"]),
  create("OAUTH token not a JWT", (w) => ({ type: "OAUTH", accountId: w.accountId, oidcToken: "abc" }), 400, "INVALID_INPUT", ["oidcToken"]),
  create("OAUTH token with binary payload", (w) => ({ type: "OAUTH", accountId: w.accountId, oidcToken: "e30.AAAA.x" }), 400, "INVALID_INPUT"),
  create("OAUTH legacy literal", (w) => ({ type: "OAUTH", accountId: w.accountId, oidcToken: "sandbox-valid-oidc-token" }), 401, "UNAUTHORIZED"),
  create("PASSKEY missing everything", (w) => ({ type: "PASSKEY", accountId: w.accountId }), 400, "INVALID_INPUT", ["nickname", "challenge", "attestation"]),
  create("PASSKEY nickname blank", (w) => ({ type: "PASSKEY", accountId: w.accountId, nickname: "   ", challenge: "Y2hhbGxlbmdl", attestation: goodAttestation }), 400, "INVALID_INPUT", ["nickname"]),
  create("PASSKEY nickname with markup", (w) => ({ type: "PASSKEY", accountId: w.accountId, nickname: "<b>", challenge: "Y2hhbGxlbmdl", attestation: goodAttestation }), 400, "INVALID_INPUT", ["nickname"]),
  create("PASSKEY challenge mismatch", (w) => ({ type: "PASSKEY", accountId: w.accountId, nickname: "k", challenge: "b3RoZXI", attestation: goodAttestation }), 400, "INVALID_INPUT", ["attestation"]),
  create("PASSKEY attestation garbage", (w) => ({ type: "PASSKEY", accountId: w.accountId, nickname: "k", challenge: "Y2hhbGxlbmdl", attestation: { ...goodAttestation, attestationObject: "AAAA" } }), 400, "INVALID_INPUT", ["attestation"]),
  create("PASSKEY clientDataJson not JSON", (w) => ({ type: "PASSKEY", accountId: w.accountId, nickname: "k", challenge: "Y2hhbGxlbmdl", attestation: { ...goodAttestation, clientDataJson: bytesToBase64Url(utf8("nope")) } }), 400, "INVALID_INPUT"),
  create("PASSKEY transports unknown", (w) => ({ type: "PASSKEY", accountId: w.accountId, nickname: "k", challenge: "Y2hhbGxlbmdl", attestation: { ...goodAttestation, transports: ["carrier-pigeon"] } }), 400, "INVALID_INPUT"),
  create("PASSKEY credentialId not base64url", (w) => ({ type: "PASSKEY", accountId: w.accountId, nickname: "k", challenge: "Y2hhbGxlbmdl", attestation: { ...goodAttestation, credentialId: "a+b/c" } }), 400, "INVALID_INPUT"),
  { name: "GET credentials without accountId", method: "GET", path: () => `${V}/auth/credentials`, status: 400, code: "INVALID_INPUT", fields: ["accountId"] },
  { name: "GET credentials with malformed accountId", method: "GET", path: () => `${V}/auth/credentials?accountId=x`, status: 400, code: "INVALID_INPUT" },
  { name: "GET sessions without accountId", method: "GET", path: () => `${V}/auth/sessions`, status: 400, code: "INVALID_INPUT" },
  { name: "GET sessions with malformed accountId", method: "GET", path: () => `${V}/auth/sessions?accountId=%00`, status: 400, code: "INVALID_INPUT" },
  { name: "challenge: malformed id", method: "POST", path: () => `${V}/auth/credentials/not-an-id/challenge`, status: 404, code: "REFERENCE_NOT_FOUND" },
  { name: "challenge: unknown id", method: "POST", path: () => `${V}/auth/credentials/AuthMethod:00000000-0000-4000-8000-000000000000/challenge`, status: 404, code: "REFERENCE_NOT_FOUND" },
  { name: "challenge: body an array", method: "POST", path: (w) => `${V}/auth/credentials/${w.emailCredentialId}/challenge`, options: () => ({ body: [] }), status: 400, code: "INVALID_INPUT" },
  { name: "challenge: clientPublicKey malformed", method: "POST", path: (w) => `${V}/auth/credentials/${w.emailCredentialId}/challenge`, options: () => ({ body: { clientPublicKey: "05" + "ab".repeat(32) } }), status: 400, code: "INVALID_INPUT", fields: ["clientPublicKey"] },
  verify("body missing type", { encryptedOtpBundle: "{}" }),
  verify("type of another credential", { type: "OAUTH", oidcToken: "a.b.c", clientPublicKey: newKeyPair().publicKey }),
  verify("bundle not JSON", { type: "EMAIL_OTP", encryptedOtpBundle: "not json" }),
  verify("bundle JSON without fields", { type: "EMAIL_OTP", encryptedOtpBundle: "{}" }),
  verify("bundle with a short enc", { type: "EMAIL_OTP", encryptedOtpBundle: JSON.stringify({ encappedPublic: "04ab", ciphertext: "00".repeat(32) }) }),
  verify("bundle as an object, not a string", { type: "EMAIL_OTP", encryptedOtpBundle: { encappedPublic: "04" } }),
  verify("bundle empty", { type: "EMAIL_OTP", encryptedOtpBundle: "" }),
  verify(
    "well-formed bundle, no pending OTP",
    { type: "EMAIL_OTP", encryptedOtpBundle: JSON.stringify({ encappedPublic: newKeyPair().publicKeyUncompressed, ciphertext: "00".repeat(48) }) },
    401,
    "UNAUTHORIZED"
  ),
  patchAccount("signature without Request-Id", { "service-wallet-signature": "abc" }, "REQUEST_ID_MISSING"),
  patchAccount("Request-Id without signature", { "request-id": UNKNOWN_REQUEST }, "WALLET_SIGNATURE_MISSING"),
  patchAccount("malformed Request-Id", { "request-id": "Request:x", "service-wallet-signature": "abc" }, "UNAUTHORIZED"),
  patchAccount("unknown Request-Id", { "request-id": UNKNOWN_REQUEST, "service-wallet-signature": "abc" }, "UNAUTHORIZED"),
  patchAccount("privateEnabled not boolean", {}, "INVALID_INPUT", { privateEnabled: "yes" }),
  patchAccount("empty body object", {}, "INVALID_INPUT", {}),
  { name: "PATCH unknown internal account", method: "PATCH", path: () => `${V}/internal-accounts/${UNKNOWN_ACCOUNT}`, options: () => ({ body: { privateEnabled: true } }), status: 404, code: "REFERENCE_NOT_FOUND" },
  { name: "export: compressed key", method: "POST", path: (w) => `${V}/internal-accounts/${w.accountId}/export`, options: () => ({ body: { clientPublicKey: newKeyPair().publicKey } }), status: 400, code: "INVALID_INPUT" },
  { name: "export: no body", method: "POST", path: (w) => `${V}/internal-accounts/${w.accountId}/export`, status: 400, code: "INVALID_INPUT" },
  { name: "refresh: unknown session", method: "POST", path: () => `${V}/auth/sessions/Session:00000000-0000-4000-8000-000000000000/refresh`, options: () => ({ body: { clientPublicKey: newKeyPair().publicKey } }), status: 404, code: "REFERENCE_NOT_FOUND" },
  { name: "refresh: key not hex", method: "POST", path: () => `${V}/auth/sessions/Session:00000000-0000-4000-8000-000000000000/refresh`, options: () => ({ body: { clientPublicKey: "zz" } }), status: 400, code: "INVALID_INPUT" },
  { name: "revoke session: malformed id", method: "DELETE", path: () => `${V}/auth/sessions/%E2%82`, status: 404, code: "NOT_FOUND" },
  { name: "revoke credential: unknown id", method: "DELETE", path: () => `${V}/auth/credentials/AuthMethod:00000000-0000-4000-8000-000000000000`, status: 404, code: "REFERENCE_NOT_FOUND" },
  { name: "processing control: negative count", method: "POST", path: () => `${V}/sandbox/processing`, options: () => ({ body: { operations: -1, seconds: 1 } }), status: 400, code: "INVALID_INPUT" }
]

describe("wallet endpoints: bad input never costs state and never yields a 500", () => {
  let t: TestServer
  let w: Wallet
  let stateBefore: string
  const state = async () =>
    JSON.stringify([
      (await t.request("GET", `${V}/auth/credentials?accountId=${w.accountId}`)).body,
      (await t.request("GET", `${V}/auth/sessions?accountId=${w.accountId}`)).body,
      (await t.request("GET", `${V}/customers/internal-accounts?customerId=${w.customerId}`)).body
    ])
  beforeAll(async () => {
    t = await startTestServer("memory")
    w = await newWallet(t)
    await loginWithOtp(t, w.emailCredentialId)
    stateBefore = await state()
  })
  afterAll(() => t.close())

  it.each(cases.map((c) => [c.name, c] as const))("%s", async (_n, c) => {
    const r = await t.request(c.method, c.path(w), c.options?.(w))
    expect(r.status, JSON.stringify(r.body)).toBe(c.status)
    expect(r.body.code).toBe(c.code)
    for (const f of c.fields ?? []) expect(r.body.details.errors.map((e: { field: string }) => e.field)).toContain(f)
    expect(await state()).toBe(stateBefore)
  })
})
