import { createCipheriv, createDecipheriv, createECDH, createHmac } from "node:crypto"
import { concatBytes, utf8 } from "./encoding.ts"
import { normalisePublicKey } from "./p256.ts"

/**
 * HPKE (RFC 9180), base mode, single shot: DHKEM(P-256, HKDF-SHA256), HKDF-SHA256, AES-GCM.
 * Written on node:crypto, synchronous: @hpke/core goes through async WebCrypto and is 3× slower
 * (notes-crypto §1h); the tests check this module against it and against RFC 9180 A.3.
 */
export type AeadId = 0x0001 | 0x0002 // AES-128-GCM, AES-256-GCM

const i2osp = (n: number, len: number) => {
  const out = new Uint8Array(len)
  for (let i = len - 1, v = n; i >= 0; i--, v >>>= 8) out[i] = v & 0xff
  return out
}

const hmac = (key: Uint8Array, data: Uint8Array) => new Uint8Array(createHmac("sha256", key).update(data).digest())

const hkdfExpand = (prk: Uint8Array, info: Uint8Array, length: number): Uint8Array => {
  const out = new Uint8Array(length)
  let t = new Uint8Array(0)
  for (let i = 1, at = 0; at < length; i++) {
    t = hmac(prk, concatBytes(t, info, Uint8Array.of(i)))
    out.set(t.subarray(0, Math.min(t.length, length - at)), at)
    at += t.length
  }
  return out
}

const VERSION = utf8("HPKE-v1")
const labeledExtract = (suite: Uint8Array, salt: Uint8Array, label: string, ikm: Uint8Array) =>
  hmac(salt, concatBytes(VERSION, suite, utf8(label), ikm))
const labeledExpand = (suite: Uint8Array, prk: Uint8Array, label: string, info: Uint8Array, length: number) =>
  hkdfExpand(prk, concatBytes(i2osp(length, 2), VERSION, suite, utf8(label), info), length)

const KEM_SUITE = concatBytes(utf8("KEM"), i2osp(0x0010, 2))
const EMPTY = new Uint8Array(0)

const kemSharedSecret = (dh: Uint8Array, enc: Uint8Array, pkR: Uint8Array) =>
  labeledExpand(KEM_SUITE, labeledExtract(KEM_SUITE, EMPTY, "eae_prk", dh), "shared_secret", concatBytes(enc, pkR), 32)

const keySchedule = (shared: Uint8Array, info: Uint8Array, aead: AeadId) => {
  const suite = concatBytes(utf8("HPKE"), i2osp(0x0010, 2), i2osp(0x0001, 2), i2osp(aead, 2))
  const context = concatBytes(
    Uint8Array.of(0),
    labeledExtract(suite, EMPTY, "psk_id_hash", EMPTY),
    labeledExtract(suite, EMPTY, "info_hash", info)
  )
  const secret = labeledExtract(suite, shared, "secret", EMPTY)
  return {
    key: labeledExpand(suite, secret, "key", context, aead === 0x0001 ? 16 : 32),
    nonce: labeledExpand(suite, secret, "base_nonce", context, 12)
  }
}

/**
 * The DH of one side's secret with the other side's point, then the KEM and key schedule. `roles`
 * says which point is `enc` and which `pkR` (the sender's own point is enc; the recipient's is pkR).
 */
const exchange = (
  secret: Uint8Array,
  peer: Uint8Array,
  roles: (own: Uint8Array) => { readonly enc: Uint8Array; readonly pkR: Uint8Array },
  info: Uint8Array,
  aead: AeadId
) => {
  const e = createECDH("prime256v1")
  e.setPrivateKey(Buffer.from(secret))
  const own = new Uint8Array(e.getPublicKey(null, "uncompressed"))
  const dh = new Uint8Array(e.computeSecret(Buffer.from(peer)))
  const { enc, pkR } = roles(own)
  return { own, ...keySchedule(kemSharedSecret(dh, enc, pkR), info, aead) }
}

const cipherName = (aead: AeadId) => (aead === 0x0001 ? "aes-128-gcm" : "aes-256-gcm")

/** Uncompressed 65-byte form of a P-256 point given in either SEC1 form, or undefined. */
export const uncompressedPoint = (point: Uint8Array): Uint8Array | undefined => {
  // Already uncompressed: ECDH's computeSecret checks the point is on the curve (and throws).
  if (point.length === 65 && point[0] === 0x04) return point
  const n = normalisePublicKey(Buffer.from(point).toString("hex"))
  return n === undefined ? undefined : new Uint8Array(Buffer.from(n.uncompressed, "hex"))
}

export interface SealArgs {
  readonly recipientPublicKey: Uint8Array
  readonly plaintext: Uint8Array
  readonly info: Uint8Array
  /** Additional authenticated data, or a function of (enc, pkR) for profiles that bind the keys. */
  readonly aad: Uint8Array | ((enc: Uint8Array, pkR: Uint8Array) => Uint8Array)
  /** The ephemeral private scalar (32 bytes) from the caller's randomness source. */
  readonly ephemeralSecret: Uint8Array
  readonly aead?: AeadId
}

/** Seals to a P-256 public key; answers the 65-byte `enc` and ciphertext‖tag. Throws on a bad key. */
export const hpkeSeal = (args: SealArgs): { readonly enc: Uint8Array; readonly ciphertext: Uint8Array } => {
  const aead = args.aead ?? 0x0002
  const pkR = uncompressedPoint(args.recipientPublicKey)
  if (pkR === undefined) throw new Error("recipient key is not a P-256 point")
  const { own: enc, key, nonce } = exchange(args.ephemeralSecret, pkR, (own) => ({ enc: own, pkR }), args.info, aead)
  const cipher = createCipheriv(cipherName(aead), key, nonce)
  cipher.setAAD(typeof args.aad === "function" ? args.aad(enc, pkR) : args.aad)
  const ciphertext = concatBytes(cipher.update(args.plaintext), cipher.final(), cipher.getAuthTag())
  return { enc, ciphertext }
}

export interface OpenArgs {
  readonly recipientPrivateKey: Uint8Array
  /** The sender's encapsulated key; a 33-byte compressed point is decompressed first. */
  readonly enc: Uint8Array
  readonly ciphertext: Uint8Array
  readonly info: Uint8Array
  readonly aad: Uint8Array | ((enc: Uint8Array, pkR: Uint8Array) => Uint8Array)
  readonly aead?: AeadId
}

/**
 * Opens a sealed message, or undefined for any failure (bad point, wrong key, tag mismatch): one
 * answer for every failure, so the endpoint does not become a decryption oracle.
 */
export const hpkeOpen = (args: OpenArgs): Uint8Array | undefined => {
  try {
    const aead = args.aead ?? 0x0002
    const enc = uncompressedPoint(args.enc)
    if (enc === undefined || args.ciphertext.length < 16) return undefined
    const { own: pkR, key, nonce } = exchange(args.recipientPrivateKey, enc, (own) => ({ enc, pkR: own }), args.info, aead)
    const decipher = createDecipheriv(cipherName(aead), key, nonce)
    decipher.setAAD(typeof args.aad === "function" ? args.aad(enc, pkR) : args.aad)
    decipher.setAuthTag(args.ciphertext.subarray(args.ciphertext.length - 16))
    return concatBytes(decipher.update(args.ciphertext.subarray(0, args.ciphertext.length - 16)), decipher.final())
  } catch {
    return undefined
  }
}

/** The reference's profile (notes-wallet-auth §3.2): info "turnkey_hpke", aad = enc65 ‖ pkR65. */
export const TURNKEY_INFO = utf8("turnkey_hpke")
export const turnkeyAad = (enc: Uint8Array, pkR: Uint8Array): Uint8Array => concatBytes(enc, pkR)
