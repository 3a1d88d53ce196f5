import { sha256 } from "@noble/hashes/sha2.js"
import { hexToBytes, utf8 } from "../encoding.ts"
import { bech32Decode, bech32Encode, convertBits } from "./bech32.ts"
import { recoverBitcoinSigner } from "./bitcoin.ts"
import { compressed, verifySecp256k1 } from "./secp256k1.ts"

/**
 * Spark wallets prove the identity key their address encodes (DECISIONS #13). A mainnet address
 * is bech32m with HRP `spark` (or the older `sp`) over a protobuf message whose field 1 is the
 * 33-byte compressed secp256k1 identity key (`0a 21 <key>`); later fields (the legacy network)
 * are allowed and ignored. Accepted signatures: a Bitcoin message signature (base64, BIP-137 or
 * Electrum header) recovering that key, or the Spark SDK's identity signature, ECDSA over
 * SHA-256(message), hex, DER or 64-byte compact.
 */
const MAINNET_HRPS = ["spark", "sp"]

export const sparkIdentityKey = (address: string): Uint8Array | undefined => {
  const d = bech32Decode(address, 200)
  if (d === undefined || d.variant !== "bech32m" || !MAINNET_HRPS.includes(d.hrp)) return undefined
  const bytes = convertBits(d.words, 5, 8, false)
  if (bytes === undefined || bytes.length < 35 || bytes[0] !== 0x0a || bytes[1] !== 0x21) return undefined
  const key = Uint8Array.from(bytes.slice(2, 35))
  try {
    return compressed(key).length === 33 && (key[0] === 2 || key[0] === 3) ? key : undefined
  } catch {
    return undefined
  }
}

export const isSparkAddress = (address: string): boolean => sparkIdentityKey(address) !== undefined

/** The mainnet address of an identity key (the toolkit's signer uses it). */
export const sparkAddress = (identityKey33: Uint8Array): string =>
  bech32Encode("spark", convertBits([0x0a, 0x21, ...identityKey33], 8, 5, true)!, "bech32m")

export const verifySparkMessage = (address: string, message: string, signature: string): boolean => {
  const key = sparkIdentityKey(address)
  if (key === undefined) return false
  const same = (k: Uint8Array) => Buffer.from(compressed(k)).equals(Buffer.from(key))
  if (/^[0-9a-fA-F]+$/.test(signature)) {
    const sig = hexToBytes(signature)
    if (sig === undefined) return false
    const digest = sha256(utf8(message))
    if (sig.length === 64) return verifySecp256k1(sig, digest, key, "compact")
    return sig[0] === 0x30 && verifySecp256k1(sig, digest, key, "der")
  }
  const signer = recoverBitcoinSigner(message, signature)
  return signer !== undefined && same(signer.publicKey)
}
