import { secp256k1 } from "@noble/curves/secp256k1.js"
import { keccak_256 } from "@noble/hashes/sha3.js"
import { ripemd160 } from "@noble/hashes/legacy.js"
import { sha256 } from "@noble/hashes/sha2.js"

/**
 * secp256k1 public-key recovery and the hashes addresses are built from. noble v2 prehashes by
 * default and wants the recovery byte first (notes-crypto §2): both are pinned here, once.
 */
export const recoverPublicKey = (r: Uint8Array, s: Uint8Array, recid: number, digest32: Uint8Array): Uint8Array | undefined => {
  try {
    const sig = new Uint8Array(65)
    sig[0] = recid
    sig.set(r, 1)
    sig.set(s, 33)
    // Compressed 33 bytes.
    return secp256k1.recoverPublicKey(sig, digest32, { prehash: false })
  } catch {
    return undefined
  }
}

export const uncompressed = (pub: Uint8Array): Uint8Array => secp256k1.Point.fromBytes(pub).toBytes(false)
export const compressed = (pub: Uint8Array): Uint8Array => secp256k1.Point.fromBytes(pub).toBytes(true)

export const keccak256 = (b: Uint8Array): Uint8Array => keccak_256(b)
export const hash160 = (b: Uint8Array): Uint8Array => ripemd160(sha256(b))
export { sha256d } from "../base58check.ts"

/** The 20-byte account of an EVM or Tron key: the last 20 bytes of keccak of the 64-byte point. */
export const keccakAccount = (pub: Uint8Array): Uint8Array => keccak_256(uncompressed(pub).subarray(1)).subarray(12)

/** ECDSA verify with a known key (Spark identity signatures): digest given, either S half accepted. */
export const verifySecp256k1 = (sig: Uint8Array, digest32: Uint8Array, pub: Uint8Array, format: "der" | "compact"): boolean => {
  try {
    return secp256k1.verify(sig, digest32, pub, { prehash: false, format, lowS: false })
  } catch {
    return false
  }
}
