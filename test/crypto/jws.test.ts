import { describe, expect, it } from "vitest"
import { compactVerify, importJWK } from "jose"
import { base64UrlToBytes, bytesToBase64Url, hexToBytes, utf8, verifyP256 } from "@tessera/core/crypto"
import { newKeyPair, sealOtp } from "@tessera/core/testing"
import { startTestServer } from "../support/server.ts"
import { newWallet, V } from "../support/wallet.ts"
import { vectors } from "./vectors.ts"

describe("ES256 JWS", () => {
  it("RFC 7515 A.3 verifies with the P-256 module (raw r‖s over header.payload)", () => {
    const v = vectors["jwt_es256"]![0]!
    const [h, p, s] = (v["jws"] as string).split(".")
    const jwk = v["jwk"] as { x: string; y: string }
    const pub = "04" + Buffer.from(base64UrlToBytes(jwk.x)!).toString("hex") + Buffer.from(base64UrlToBytes(jwk.y)!).toString("hex")
    expect(verifyP256(pub, utf8(`${h}.${p}`), base64UrlToBytes(s!)!, "ieee-p1363")).toBe(true)
    expect(verifyP256(pub, utf8(`${h}.${p}x`), base64UrlToBytes(s!)!, "ieee-p1363")).toBe(false)
  })

  it("the OTP verification token is a JWS that jose verifies with the key published in the target bundle", async () => {
    const t = await startTestServer("memory")
    try {
      const w = await newWallet(t)
      const ch = await t.request("POST", `${V}/auth/credentials/${w.emailCredentialId}/challenge`)
      const quorum = JSON.parse(ch.body.otpEncryptionTargetBundle).enclaveQuorumPublic as string
      const tek = newKeyPair()
      const first = await t.request("POST", `${V}/auth/credentials/${w.emailCredentialId}/verify`, {
        body: { type: "EMAIL_OTP", encryptedOtpBundle: sealOtp(ch.body.otpEncryptionTargetBundle, "000000", tek) }
      })
      const raw = hexToBytes(quorum)!
      const key = await importJWK({ kty: "EC", crv: "P-256", x: bytesToBase64Url(raw.subarray(1, 33)), y: bytesToBase64Url(raw.subarray(33)) }, "ES256")
      const { payload, protectedHeader } = await compactVerify(first.body.payloadToSign, key)
      expect(protectedHeader.alg).toBe("ES256")
      const claims = JSON.parse(new TextDecoder().decode(payload))
      expect(claims).toMatchObject({ tek: tek.publicKey, jti: first.body.requestId })
      expect(claims.exp - claims.iat).toBe(3600)
    } finally {
      await t.close()
    }
  })
})
