import { createHash } from "node:crypto"
import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { base64UrlToBytes, bytesToHex, checkOidcClaims, decodeCbor, decodeOidcToken, utf8, verifyAssertion, verifyRegistration } from "@tessera/core/crypto"
import { mintOidcToken, newKeyPair, SoftwarePasskey } from "@tessera/core/testing"
import { vectors } from "./vectors.ts"

const coseToHex = (b64: string) => {
  const m = decodeCbor(base64UrlToBytes(b64)!)!.value as Map<number, Uint8Array>
  return "04" + bytesToHex(m.get(-2)!) + bytesToHex(m.get(-3)!)
}

describe("WebAuthn assertions (SimpleWebAuthn known answers)", () => {
  for (const v of vectors["webauthn_es256"]!) {
    it(`${v["id"]} verifies, and fails with the counter replayed or the origin changed`, () => {
      const clientData = JSON.parse(Buffer.from(base64UrlToBytes(v["clientDataJSON"])!).toString("utf8"))
      const passkey = {
        credentialId: "cred",
        publicKey: coseToHex(v["credentialPublicKey_cose_b64u"]),
        rpIdHash: bytesToHex(createHash("sha256").update(v["rpId"]).digest()),
        origin: v["origin"],
        signCount: v["prev_counter"]
      }
      const args = {
        passkey,
        challengeBytes: base64UrlToBytes(clientData.challenge)!,
        credentialId: "cred",
        clientDataJson: v["clientDataJSON"],
        authenticatorData: v["authenticatorData"],
        signature: v["signature"]
      }
      const ok = verifyAssertion(args)
      expect(ok.ok).toBe(true)
      if (v["expected_counter"] !== undefined) expect(ok).toEqual({ ok: true, value: { signCount: v["expected_counter"] } })
      if ((v["expected_counter"] ?? 0) > 0) expect(verifyAssertion({ ...args, passkey: { ...passkey, signCount: v["expected_counter"] } }).ok).toBe(false)
      expect(verifyAssertion({ ...args, passkey: { ...passkey, origin: "https://other.example" } }).ok).toBe(false)
      expect(verifyAssertion({ ...args, challengeBytes: utf8("other") }).ok).toBe(false)
      const sig = Buffer.from(base64UrlToBytes(v["signature"])!)
      sig[sig.length - 3]! ^= 1
      expect(verifyAssertion({ ...args, signature: sig.toString("base64url") }).ok).toBe(false)
    })
  }
})

describe("software passkey round trips", () => {
  it("registration then assertions verify; any other challenge, key or a replayed counter is refused", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.hexaString({ minLength: 64, maxLength: 64 }), (seed, hex) => {
        const pk = new SoftwarePasskey({ origin: "https://app.example.com", rpId: "example.com", seed })
        const challenge = Buffer.from(seed).toString("base64url")
        const reg = verifyRegistration({ challenge, ...pk.register(challenge) })
        expect(reg.ok).toBe(true)
        if (!reg.ok) return
        const a = pk.assert(hex)
        const first = verifyAssertion({ passkey: reg.value, challengeBytes: utf8(hex), ...a })
        expect(first.ok).toBe(true)
        // The same assertion again: the counter did not move.
        const counter = first.ok ? first.value.signCount : 0
        expect(verifyAssertion({ passkey: { ...reg.value, signCount: counter }, challengeBytes: utf8(hex), ...a }).ok).toBe(false)
        expect(verifyAssertion({ passkey: reg.value, challengeBytes: utf8(hex + "0"), ...a }).ok).toBe(false)
        expect(verifyAssertion({ passkey: { ...reg.value, publicKey: newKeyPair().publicKeyUncompressed }, challengeBytes: utf8(hex), ...a }).ok).toBe(false)
      }),
      { numRuns: 15 }
    )
  })

  it("refuses a registration for another challenge or an origin that does not own the rpId", () => {
    const pk = new SoftwarePasskey({ origin: "https://evil.example", rpId: "example.com" })
    expect(verifyRegistration({ challenge: "abc", ...pk.register("abc") }).ok).toBe(false)
    const good = new SoftwarePasskey({ origin: "https://example.com", rpId: "example.com" })
    expect(verifyRegistration({ challenge: "xyz", ...good.register("abc") }).ok).toBe(false)
  })
})

describe("sandbox OIDC claims (spec rule 10)", () => {
  const now = Date.UTC(2026, 10, 21, 12)
  const claims = (o: Parameters<typeof mintOidcToken>[0]) => {
    const d = decodeOidcToken(mintOidcToken({ issuedAtMs: now, ...o }))
    if (!d.ok) throw new Error(d.reason)
    return d.claims
  }

  it("iat: accepted up to 65 s old and 5 s ahead, refused beyond", () => {
    fc.assert(
      fc.property(fc.integer({ min: -120, max: 120 }), (ageSeconds) => {
        const r = checkOidcClaims(claims({ issuedAtMs: now - ageSeconds * 1000 }), now)
        expect(r.ok).toBe(ageSeconds <= 65 && ageSeconds >= -5)
      })
    )
  })

  it("nonce is SHA-256 of the exact key string: case or form changes fail", () => {
    const k = newKeyPair()
    expect(checkOidcClaims(claims({ clientPublicKey: k.publicKey }), now, k.publicKey).ok).toBe(true)
    expect(checkOidcClaims(claims({ clientPublicKey: k.publicKey }), now, k.publicKey.toUpperCase()).ok).toBe(false)
    expect(checkOidcClaims(claims({ clientPublicKey: k.publicKey }), now, k.publicKeyUncompressed).ok).toBe(false)
    expect(checkOidcClaims(claims({}), now, k.publicKey).ok).toBe(false)
  })

  it.each([
    ["an unsupported issuer", { iss: "https://login.example" }],
    ["an empty audience", { aud: "" }],
    ["a two-element audience", { aud: ["a", "b"] }],
    ["an empty subject", { sub: "" }],
    ["an expired token", { expiresInSeconds: -1 }],
    ["a non-numeric iat", { extra: { iat: "now" } }]
  ])("refuses %s", (_, o) => {
    expect(checkOidcClaims(claims(o as never), now).ok).toBe(false)
  })

  it("accepts a one-element audience array and every supported issuer", () => {
    for (const iss of ["https://accounts.google.com", "accounts.google.com", "https://appleid.apple.com"])
      expect(checkOidcClaims(claims({ iss, aud: ["client"] }), now)).toMatchObject({ ok: true, identity: { iss, aud: "client" } })
  })

  it("a malformed token is a decode failure, not a claim failure", () => {
    for (const t of ["", "a.b", "a.b.c.d", "!!.e30.x", `${Buffer.from("{}").toString("base64url")}.bm90IGpzb24.x`]) expect(decodeOidcToken(t).ok).toBe(false)
  })
})
