import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { Aes256Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from "@hpke/core"
import {
  base58checkDecode,
  bytesToHex,
  hexToBytes,
  hpkeOpen,
  hpkeSeal,
  keyPairFrom,
  openBase58Bundle,
  sealSessionKey,
  TURNKEY_INFO,
  turnkeyAad,
  utf8
} from "@tessera/core/crypto"
import { vectors } from "./vectors.ts"

const secret = fc.uint8Array({ minLength: 32, maxLength: 32 }).filter((b) => keyPairFrom(b) !== undefined)

describe("HPKE DHKEM(P-256)/HKDF-SHA256/AES-GCM (known answers)", () => {
  const [rfc, derived, turnkey] = vectors["hpke_p256_sha256"]!
  it("RFC 9180 A.3.1 (AES-128-GCM) opens to the published plaintext", () => {
    const pt = hpkeOpen({
      recipientPrivateKey: hexToBytes(rfc!["skRm"])!,
      enc: hexToBytes(rfc!["enc"])!,
      ciphertext: hexToBytes(rfc!["ct"])!,
      info: hexToBytes(rfc!["info"])!,
      aad: hexToBytes(rfc!["aad"])!,
      aead: 0x0001
    })
    expect(pt && bytesToHex(pt)).toBe(rfc!["pt"])
  })

  it("the AES-256-GCM variant seals byte for byte to the vector and opens back", () => {
    const sealed = hpkeSeal({
      recipientPublicKey: hexToBytes(keyPairFrom(hexToBytes(derived!["skRm"])!)!.publicKeyUncompressed)!,
      plaintext: hexToBytes(derived!["pt"])!,
      info: hexToBytes(derived!["info"])!,
      aad: hexToBytes(derived!["aad"])!,
      ephemeralSecret: hexToBytes(derived!["skEm"])!
    })
    expect(bytesToHex(sealed.enc)).toBe(derived!["enc"])
    expect(bytesToHex(sealed.ciphertext)).toBe(derived!["ct"])
  })

  it("opens the reference's (Turnkey) email bundle: base58check(enc33 ‖ ct), info turnkey_hpke, aad enc ‖ pkR", () => {
    const pt = openBase58Bundle(turnkey!["bundle_base58check"], hexToBytes(turnkey!["skRm"])!)
    expect(pt && bytesToHex(pt)).toBe(turnkey!["pt"])
  })

  it("refuses a tampered ciphertext, a wrong key and a wrong aad with the same answer", () => {
    const base = {
      recipientPrivateKey: hexToBytes(rfc!["skRm"])!,
      enc: hexToBytes(rfc!["enc"])!,
      ciphertext: hexToBytes(rfc!["ct"])!,
      info: hexToBytes(rfc!["info"])!,
      aad: hexToBytes(rfc!["aad"])!,
      aead: 0x0001 as const
    }
    const ct = Uint8Array.from(base.ciphertext)
    ct[3]! ^= 1
    expect(hpkeOpen({ ...base, ciphertext: ct })).toBeUndefined()
    expect(hpkeOpen({ ...base, recipientPrivateKey: new Uint8Array(32).fill(9) })).toBeUndefined()
    expect(hpkeOpen({ ...base, aad: utf8("other") })).toBeUndefined()
    expect(hpkeOpen({ ...base, enc: new Uint8Array(65) })).toBeUndefined()
  })
})

describe("HPKE against @hpke/core (independent implementation)", () => {
  const suite = new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes256Gcm() })

  it("what Tessera seals, @hpke/core opens; what @hpke/core seals, Tessera opens", async () => {
    await fc.assert(
      fc.asyncProperty(secret, secret, fc.uint8Array({ maxLength: 200 }), async (r, e, pt) => {
        const recipient = keyPairFrom(r)!
        const skR = await suite.kem.importKey("raw", hexToBytes(recipient.privateKey)!.buffer as ArrayBuffer, false)
        const ours = hpkeSeal({ recipientPublicKey: hexToBytes(recipient.publicKey)!, plaintext: pt, info: TURNKEY_INFO, aad: turnkeyAad, ephemeralSecret: e })
        const pkR = hexToBytes(recipient.publicKeyUncompressed)!
        const opened = await suite.open(
          { recipientKey: skR, enc: ours.enc.buffer as ArrayBuffer, info: TURNKEY_INFO.buffer as ArrayBuffer },
          ours.ciphertext.buffer as ArrayBuffer,
          turnkeyAad(ours.enc, pkR).buffer as ArrayBuffer
        )
        expect(bytesToHex(new Uint8Array(opened))).toBe(bytesToHex(pt))

        const pkObj = await suite.kem.importKey("raw", pkR.buffer as ArrayBuffer, true)
        const sender = await suite.createSenderContext({ recipientPublicKey: pkObj, info: TURNKEY_INFO.buffer as ArrayBuffer })
        const enc = new Uint8Array(sender.enc)
        const ct = new Uint8Array(await sender.seal(pt.buffer.slice(pt.byteOffset, pt.byteOffset + pt.length) as ArrayBuffer, turnkeyAad(enc, pkR).buffer as ArrayBuffer))
        const back = hpkeOpen({ recipientPrivateKey: hexToBytes(recipient.privateKey)!, enc, ciphertext: ct, info: TURNKEY_INFO, aad: turnkeyAad })
        expect(back && bytesToHex(back)).toBe(bytesToHex(pt))
      }),
      { numRuns: 15 }
    )
  })

  it("legacy session-key bundles round-trip and carry a 33-byte compressed enc", () => {
    fc.assert(
      fc.property(secret, secret, secret, (c, k, e) => {
        const client = keyPairFrom(c)!
        const bundle = sealSessionKey(hexToBytes(client.publicKeyUncompressed)!, k, e)
        expect(base58checkDecode(bundle)![0]).toBeOneOf([2, 3])
        expect(bytesToHex(openBase58Bundle(bundle, hexToBytes(client.privateKey)!)!)).toBe(bytesToHex(k))
      }),
      { numRuns: 20 }
    )
  })
})
