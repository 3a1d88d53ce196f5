import { createECDH, createHash, createPrivateKey, createPublicKey, ECDH, type KeyObject, sign, verify } from "node:crypto"
import { bytesToBase64Url, bytesToHex, hexToBytes } from "./encoding.ts"

/**
 * P-256 keys and ECDSA on node:crypto: 10–35× faster than noble here (notes-crypto §4), and
 * OpenSSL verifies high-S signatures, which WebCrypto, passkeys and Turnkey stamps all produce.
 * Public keys travel as SEC1 hex, compressed (66 chars) or uncompressed (130 chars).
 */

/** The SEC1 point in both forms, or undefined when the hex is not a point on P-256. */
const KEY_CACHE_MAX = 4096

// Point decompression is a modular square root (~35 µs here); a session key is normalised on
// every stamp it signs, so both forms are remembered.
const formsCache = new Map<string, { readonly compressed: string; readonly uncompressed: string }>()

export const normalisePublicKey = (hex: string): { readonly compressed: string; readonly uncompressed: string } | undefined => {
  const hit = formsCache.get(hex)
  if (hit !== undefined) return hit
  if (!/^(0[23][0-9a-fA-F]{64}|04[0-9a-fA-F]{128})$/.test(hex)) return undefined
  try {
    const lower = hex.toLowerCase()
    const forms = {
      compressed: lower.startsWith("04") ? (ECDH.convertKey(lower, "prime256v1", "hex", "hex", "compressed") as string) : lower,
      uncompressed: lower.startsWith("04") ? lower : (ECDH.convertKey(lower, "prime256v1", "hex", "hex", "uncompressed") as string)
    }
    // convertKey validates the point either way; an uncompressed input is checked by compressing it.
    if (formsCache.size >= KEY_CACHE_MAX) formsCache.clear()
    // Under every spelling: a TEK arrives uncompressed in the OTP bundle, then compressed in its stamp.
    formsCache.set(hex, forms)
    formsCache.set(forms.compressed, forms)
    formsCache.set(forms.uncompressed, forms)
    return forms
  } catch {
    return undefined
  }
}

// Importing a key costs twice a verify; sessions sign many requests with one key.
const keyCache = new Map<string, KeyObject>()

const publicKeyObject = (uncompressedHex: string): KeyObject => {
  let key = keyCache.get(uncompressedHex)
  if (key === undefined) {
    const raw = Buffer.from(uncompressedHex, "hex")
    key = createPublicKey({
      key: { kty: "EC", crv: "P-256", x: bytesToBase64Url(raw.subarray(1, 33)), y: bytesToBase64Url(raw.subarray(33, 65)) },
      format: "jwk"
    })
    if (keyCache.size >= KEY_CACHE_MAX) keyCache.clear()
    keyCache.set(uncompressedHex, key)
  }
  return key
}

/** ECDSA P-256 / SHA-256 over `message`; `signature` DER (default) or raw r‖s. Never throws. */
export const verifyP256 = (
  publicKeyHex: string,
  message: Uint8Array,
  signature: Uint8Array,
  encoding: "der" | "ieee-p1363" = "der"
): boolean => {
  const pub = normalisePublicKey(publicKeyHex)
  if (pub === undefined) return false
  try {
    return verify("sha256", message, { key: publicKeyObject(pub.uncompressed), dsaEncoding: encoding }, signature)
  } catch {
    return false
  }
}

/** The private scalar's public key, or undefined when the scalar is not in [1, n-1]. */
export const publicKeyOf = (privateKeyHex: string): { readonly compressed: string; readonly uncompressed: string } | undefined => {
  if (!/^[0-9a-fA-F]{64}$/.test(privateKeyHex)) return undefined
  try {
    const e = createECDH("prime256v1")
    e.setPrivateKey(Buffer.from(privateKeyHex, "hex"))
    return { compressed: e.getPublicKey("hex", "compressed"), uncompressed: e.getPublicKey("hex", "uncompressed") }
  } catch {
    return undefined
  }
}

// The server signs with a few long-lived keys (the wallet quorum key); importing one costs more than the signature.
const privateCache = new Map<string, KeyObject>()

const privateKeyObject = (privateKeyHex: string): KeyObject => {
  const hit = privateCache.get(privateKeyHex)
  if (hit !== undefined) return hit
  const key = importPrivateKey(privateKeyHex)
  if (privateCache.size >= 256) privateCache.clear()
  privateCache.set(privateKeyHex, key)
  return key
}

const importPrivateKey = (privateKeyHex: string): KeyObject => {
  const pub = publicKeyOf(privateKeyHex)
  if (pub === undefined) throw new Error("invalid P-256 private key")
  const raw = Buffer.from(pub.uncompressed, "hex")
  return createPrivateKey({
    key: {
      kty: "EC",
      crv: "P-256",
      d: bytesToBase64Url(hexToBytes(privateKeyHex)!),
      x: bytesToBase64Url(raw.subarray(1, 33)),
      y: bytesToBase64Url(raw.subarray(33, 65))
    },
    format: "jwk"
  })
}

/** ECDSA P-256 / SHA-256 signature, DER by default. Used by the server's own keys and the toolkit. */
export const signP256 = (privateKeyHex: string, message: Uint8Array, encoding: "der" | "ieee-p1363" = "der"): Uint8Array =>
  new Uint8Array(sign("sha256", message, { key: privateKeyObject(privateKeyHex), dsaEncoding: encoding }))

/**
 * A key pair from 32 secret bytes, always: the rare out-of-range scalar is replaced by its
 * SHA-256 (server keys and fresh keys come from random or stored bytes, never user input).
 */
export const keyPairOf = (secret32: Uint8Array) => keyPairFrom(secret32) ?? keyPairFrom(createHash("sha256").update(secret32).digest())!

/** A fresh key pair from 32 bytes of randomness (retry with other bytes when out of range). */
export const keyPairFrom = (
  secret32: Uint8Array
): { readonly privateKey: string; readonly publicKey: string; readonly publicKeyUncompressed: string } | undefined => {
  const privateKey = bytesToHex(secret32)
  const pub = publicKeyOf(privateKey)
  return pub === undefined ? undefined : { privateKey, publicKey: pub.compressed, publicKeyUncompressed: pub.uncompressed }
}
