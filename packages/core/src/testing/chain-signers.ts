import { createHash, createPrivateKey, randomBytes, sign } from "node:crypto"
import { base58 } from "@scure/base"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { ed25519 } from "@noble/curves/ed25519.js"
import { sha256 } from "@noble/hashes/sha2.js"
import { bytesToBase64Url, bytesToHex, concatBytes, utf8 } from "../crypto/encoding.ts"
import { base58checkEncode } from "../crypto/base58check.ts"
import {
  bech32Encode,
  bitcoinMessageDigest,
  convertBits,
  hash160,
  keccak256,
  keccakAccount,
  sparkAddress,
  tronAddress
} from "../crypto/ownership/index.ts"

/**
 * Wallet-side signers for every ownership scheme, so tests (ours and integrators') can prove
 * ownership of the addresses they register. Keys come from 32 seed bytes (random by default).
 */
export interface ChainSigner {
  readonly address: string
  readonly sign: (message: string) => string
}

const seedOf = (seed?: Uint8Array) => {
  for (let s = seed ?? randomBytes(32); ; s = createHash("sha256").update(s).digest()) if (secp256k1.utils.isValidSecretKey(s)) return new Uint8Array(s)
}

/** r‖s‖recid over a 32-byte digest. */
const signRecoverable = (digest: Uint8Array, secret: Uint8Array) => {
  const sig = secp256k1.sign(digest, secret, { prehash: false, format: "recovered" })
  return { recid: sig[0]!, rs: sig.subarray(1) }
}

const eip55 = (account: Uint8Array) => {
  const hex = bytesToHex(account)
  const hash = bytesToHex(keccak256(utf8(hex)))
  return "0x" + [...hex].map((c, i) => (parseInt(hash[i]!, 16) >= 8 ? c.toUpperCase() : c)).join("")
}

const prefixedSigner = (prefix: string, secret: Uint8Array) => (message: string) => {
  const m = utf8(message)
  const { recid, rs } = signRecoverable(keccak256(concatBytes(utf8(`${prefix}${m.length}`), m)), secret)
  return "0x" + bytesToHex(concatBytes(rs, Uint8Array.of(27 + recid)))
}

/** EIP-191 personal_sign (Ethereum, Base, Polygon, Plasma); the address is EIP-55 checksummed. */
export const evmSigner = (seed?: Uint8Array): ChainSigner => {
  const secret = seedOf(seed)
  return { address: eip55(keccakAccount(secp256k1.getPublicKey(secret))), sign: prefixedSigner("\u0019Ethereum Signed Message:\n", secret) }
}

/** TIP-191 (TronWeb signMessageV2). */
export const tronSigner = (seed?: Uint8Array): ChainSigner => {
  const secret = seedOf(seed)
  const sign = prefixedSigner("\u0019TRON Signed Message:\n", secret)
  return { address: tronAddress(keccakAccount(secp256k1.getPublicKey(secret))), sign: (m) => sign(m).slice(2) }
}

export type BitcoinAddressType = "P2PKH" | "P2SH-P2WPKH" | "P2WPKH"

const base58check = (version: number, hash: Uint8Array) => base58checkEncode(concatBytes(Uint8Array.of(version), hash))

/** Bitcoin message signing, BIP-137 headers by default or Electrum's P2PKH-style ones. */
export const bitcoinSigner = (type: BitcoinAddressType = "P2WPKH", scheme: "bip137" | "electrum" = "bip137", seed?: Uint8Array): ChainSigner => {
  const secret = seedOf(seed)
  const pub = secp256k1.getPublicKey(secret, true)
  const address =
    type === "P2PKH"
      ? base58check(0x00, hash160(pub))
      : type === "P2SH-P2WPKH"
        ? base58check(0x05, hash160(concatBytes(Uint8Array.of(0x00, 0x14), hash160(pub))))
        : bech32Encode("bc", [0, ...convertBits([...hash160(pub)], 8, 5, true)!], "bech32")
  const base = scheme === "electrum" ? 31 : type === "P2PKH" ? 31 : type === "P2SH-P2WPKH" ? 35 : 39
  return {
    address,
    sign: (message) => {
      const { recid, rs } = signRecoverable(bitcoinMessageDigest(utf8(message)), secret)
      return Buffer.from(concatBytes(Uint8Array.of(base + recid), rs)).toString("base64")
    }
  }
}

/** Solana: Ed25519 over the UTF-8 message, base58 signature. */
export const solanaSigner = (seed?: Uint8Array): ChainSigner => {
  const secret = seed ?? new Uint8Array(randomBytes(32))
  const pub = ed25519.getPublicKey(secret)
  const key = createPrivateKey({ key: { kty: "OKP", crv: "Ed25519", d: bytesToBase64Url(secret), x: bytesToBase64Url(pub) }, format: "jwk" })
  return { address: base58.encode(pub), sign: (message) => base58.encode(sign(null, utf8(message), key)) }
}

/** Spark: the SDK's identity signature (ECDSA over SHA-256(message), DER hex) by the key the address encodes. */
export const sparkSigner = (seed?: Uint8Array): ChainSigner => {
  const secret = seedOf(seed)
  return {
    address: sparkAddress(secp256k1.getPublicKey(secret, true)),
    sign: (message) => bytesToHex(secp256k1.sign(sha256(utf8(message)), secret, { prehash: false, format: "der" }))
  }
}
