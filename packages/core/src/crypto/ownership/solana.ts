import { createPublicKey, verify } from "node:crypto"
import bs58 from "bs58"
import { ed25519 } from "@noble/curves/ed25519.js"
import { bytesToBase64Url, utf8 } from "../encoding.ts"

/**
 * Solana: Ed25519 over the UTF-8 message, base58 signature (64 bytes), base58 address = the key
 * (32 bytes). node:crypto verifies (strict, 10× noble); small-order keys, which "verify" for any
 * message under lax rules, are refused outright (notes-crypto §1d).
 */
const decode58 = (s: string): Uint8Array | undefined => {
  try {
    return bs58.decode(s)
  } catch {
    return undefined
  }
}

export const solanaKey = (address: string): Uint8Array | undefined => {
  const key = decode58(address)
  if (key === undefined || key.length !== 32) return undefined
  try {
    return ed25519.Point.fromBytes(key).isSmallOrder() ? undefined : key
  } catch {
    return undefined
  }
}

export const isSolanaAddress = (address: string): boolean => solanaKey(address) !== undefined

export const verifySolana = (address: string, message: string, signatureB58: string): boolean => {
  const key = solanaKey(address)
  const sig = decode58(signatureB58)
  if (key === undefined || sig === undefined || sig.length !== 64) return false
  try {
    const pub = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: bytesToBase64Url(key) }, format: "jwk" })
    return verify(null, utf8(message), pub, sig)
  } catch {
    return false
  }
}
