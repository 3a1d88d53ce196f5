import { createPublicKey, type KeyObject, verify } from "node:crypto"
import { base58 } from "@scure/base"
import { ed25519 } from "@noble/curves/ed25519.js"
import { bytesToBase64Url, utf8 } from "../encoding.ts"

/**
 * Solana: Ed25519 over the UTF-8 message, base58 signature (64 bytes), base58 address = the key
 * (32 bytes). node:crypto verifies (strict, 10× noble); small-order keys, which "verify" for any
 * message under lax rules, are refused outright (notes-crypto §1d).
 */
const decode58 = (s: string): Uint8Array | undefined => {
  try {
    return base58.decode(s)
  } catch {
    return undefined
  }
}

// The small-order check costs ~90 µs; an address is checked when registered and again when it
// proves ownership, so the answer is remembered.
const checked = new Map<string, Uint8Array | null>()

export const solanaKey = (address: string): Uint8Array | undefined => {
  const hit = checked.get(address)
  if (hit !== undefined) return hit ?? undefined
  const key = decode58(address)
  let ok: Uint8Array | null = null
  if (key !== undefined && key.length === 32)
    try {
      ok = ed25519.Point.fromBytes(key).isSmallOrder() ? null : key
    } catch {
      ok = null
    }
  if (checked.size >= 4096) checked.clear()
  checked.set(address, ok)
  return ok ?? undefined
}

// An account proves ownership once, but a server verifying many wallets re-imports keys often.
const keys = new Map<string, KeyObject>()
const keyObject = (address: string, key: Uint8Array): KeyObject => {
  let k = keys.get(address)
  if (k === undefined) {
    k = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: bytesToBase64Url(key) }, format: "jwk" })
    if (keys.size >= 4096) keys.clear()
    keys.set(address, k)
  }
  return k
}

export const isSolanaAddress = (address: string): boolean => solanaKey(address) !== undefined

export const verifySolana = (address: string, message: string, signatureB58: string): boolean => {
  const key = solanaKey(address)
  const sig = decode58(signatureB58)
  if (key === undefined || sig === undefined || sig.length !== 64) return false
  try {
    return verify(null, utf8(message), keyObject(address, key), sig)
  } catch {
    return false
  }
}
