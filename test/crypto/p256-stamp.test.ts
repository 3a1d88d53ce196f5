import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { p256 } from "@noble/curves/nist.js"
import {
  bytesToBase64Url,
  bytesToHex,
  hexToBytes,
  keyPairFrom,
  normalisePublicKey,
  parseStamp,
  signP256,
  STAMP_SCHEME,
  stampSigns,
  utf8,
  verifyP256
} from "@tessera/core/crypto"
import { vectors } from "./vectors.ts"

const stampOf = (publicKey: string, signature: string, scheme = STAMP_SCHEME) =>
  bytesToBase64Url(utf8(JSON.stringify({ publicKey, scheme, signature })))

describe("P-256 ECDSA (known answers)", () => {
  for (const v of vectors["p256_ecdsa_stamp"]!) {
    it(`${v["id"]}: ${v["expected"] ? "accepts" : "rejects"}`, () => {
      const msg = utf8(v["message"])
      expect(verifyP256(v["public_key_uncompressed"], msg, hexToBytes(v["signature_compact"])!, "ieee-p1363")).toBe(v["expected"])
      if (v["signature_der"] !== undefined) expect(verifyP256(v["public_key_uncompressed"], msg, hexToBytes(v["signature_der"])!)).toBe(v["expected"])
      // The same key in compressed form verifies identically.
      const compressed = normalisePublicKey(v["public_key_uncompressed"])!.compressed
      expect(verifyP256(compressed, msg, hexToBytes(v["signature_compact"])!, "ieee-p1363")).toBe(v["expected"])
    })
  }

  it("accepts the high-S twin of a valid signature, as OpenSSL and passkeys produce", () => {
    const v = vectors["p256_ecdsa_stamp"]![1]!
    const sig = p256.Signature.fromBytes(hexToBytes(v["signature_compact"])!, "compact")
    const twin = new p256.Signature(sig.r, p256.Point.CURVE().n - sig.s)
    expect(verifyP256(v["public_key_uncompressed"], utf8(v["message"]), twin.toBytes("der"))).toBe(true)
  })
})

describe("Service-Wallet-Signature stamps", () => {
  const secret = fc.uint8Array({ minLength: 32, maxLength: 32 }).filter((b) => keyPairFrom(b) !== undefined)

  it("round trip: a stamp over the exact payload verifies; any other payload, key or bit does not", () => {
    fc.assert(
      fc.property(secret, secret, fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), fc.nat(), (s1, s2, payload, other, bit) => {
        const k = keyPairFrom(s1)!
        const sig = signP256(k.privateKey, utf8(payload))
        const parsed = parseStamp(stampOf(k.publicKey, bytesToHex(sig)))
        expect(parsed.ok).toBe(true)
        if (!parsed.ok) return
        expect(stampSigns(parsed.stamp, payload)).toBe(true)
        if (other !== payload) expect(stampSigns(parsed.stamp, other)).toBe(false)
        const k2 = keyPairFrom(s2)!
        if (k2.publicKey !== k.publicKey) expect(stampSigns({ ...parsed.stamp, publicKey: k2.publicKey }, payload)).toBe(false)
        const flipped = Uint8Array.from(sig)
        const i = bit % (flipped.length * 8)
        flipped[i >> 3]! ^= 1 << (i & 7)
        expect(stampSigns({ ...parsed.stamp, signature: flipped }, payload)).toBe(false)
      }),
      { numRuns: 60 }
    )
  })

  it("agrees with an independent verifier (noble, lowS off) on random stamps", () => {
    fc.assert(
      fc.property(secret, fc.string(), (s, payload) => {
        const k = keyPairFrom(s)!
        const sig = signP256(k.privateKey, utf8(payload))
        expect(p256.verify(sig, utf8(payload), hexToBytes(k.publicKey)!, { format: "der", lowS: false })).toBe(true)
      }),
      { numRuns: 20 }
    )
  })

  it("accepts an uncompressed key in the stamp and normalises it to the compressed form", () => {
    const k = keyPairFrom(new Uint8Array(32).fill(7))!
    const parsed = parseStamp(stampOf(k.publicKeyUncompressed, bytesToHex(signP256(k.privateKey, utf8("x")))))
    expect(parsed.ok && parsed.stamp.publicKey).toBe(k.publicKey)
  })

  it.each([
    ["not base64url", "###"],
    ["empty", ""],
    ["not JSON", bytesToBase64Url(utf8("hello"))],
    ["JSON array", bytesToBase64Url(utf8("[1,2]"))],
    ["missing signature", bytesToBase64Url(utf8(JSON.stringify({ publicKey: "02" + "11".repeat(32), scheme: STAMP_SCHEME })))],
    ["extra key", bytesToBase64Url(utf8(JSON.stringify({ publicKey: "02", scheme: STAMP_SCHEME, signature: "30", x: 1 })))],
    ["wrong scheme", stampOf(keyPairFrom(new Uint8Array(32).fill(1))!.publicKey, "3006020101020101", "SIGNATURE_SCHEME_OTHER")],
    ["key not on the curve", stampOf("02" + "01".repeat(32), "3006020101020101")],
    ["signature not hex", stampOf(keyPairFrom(new Uint8Array(32).fill(1))!.publicKey, "zz")],
    ["signature not DER", stampOf(keyPairFrom(new Uint8Array(32).fill(1))!.publicKey, "ff".repeat(64))]
  ])("refuses a malformed stamp: %s", (_, header) => {
    expect(parseStamp(header).ok).toBe(false)
  })
})
