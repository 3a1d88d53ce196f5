import { base58checkDecode } from "../base58check.ts"
import { concatBytes, utf8 } from "../encoding.ts"
import { decodeSegwit } from "./bech32.ts"
import { compressed, hash160, recoverPublicKey, sha256d, uncompressed } from "./secp256k1.ts"

/**
 * Bitcoin message signatures (DECISIONS #13): base64 65-byte compact signatures over
 * sha256d("\x18Bitcoin Signed Message:\n" ‖ varint(len) ‖ message). `bip137` reads the address
 * type from the header (27–30 P2PKH uncompressed, 31–34 P2PKH compressed, 35–38 P2SH-P2WPKH,
 * 39–42 P2WPKH); `electrum` uses P2PKH-style headers (27–34) for any address type, which the
 * address itself then names. Mainnet only; address version and HRP are checked (unlike
 * bitcoinjs-message, notes-crypto §1c). BIP-322 (Taproot and friends) is not supported.
 */
export type BitcoinScheme = "bip137" | "electrum"

export type BitcoinAddress =
  | { readonly type: "P2PKH"; readonly hash: Uint8Array }
  | { readonly type: "P2SH"; readonly hash: Uint8Array }
  | { readonly type: "P2WPKH"; readonly hash: Uint8Array }

export const parseBitcoinAddress = (address: string): BitcoinAddress | undefined => {
  if (/^bc1/i.test(address)) {
    const w = decodeSegwit(address, "bc")
    return w !== undefined && w.version === 0 && w.program.length === 20 ? { type: "P2WPKH", hash: w.program } : undefined
  }
  const raw = base58checkDecode(address)
  if (raw === undefined || raw.length !== 21) return undefined
  if (raw[0] === 0x00) return { type: "P2PKH", hash: raw.subarray(1) }
  if (raw[0] === 0x05) return { type: "P2SH", hash: raw.subarray(1) }
  return undefined
}

export const isBitcoinAddress = (address: string): boolean => parseBitcoinAddress(address) !== undefined

const varint = (n: number): Uint8Array =>
  n < 0xfd ? Uint8Array.of(n) : n <= 0xffff ? Uint8Array.of(0xfd, n & 0xff, n >> 8) : Uint8Array.of(0xfe, n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, (n >>> 24) & 0xff)

export const bitcoinMessageDigest = (message: Uint8Array): Uint8Array =>
  sha256d(concatBytes(utf8("\u0018Bitcoin Signed Message:\n"), varint(message.length), message))

/** The key a signature recovers, with what its header says; undefined when malformed. */
export const recoverBitcoinSigner = (
  message: string,
  signatureBase64: string
): { readonly publicKey: Uint8Array; readonly header: number } | undefined => {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(signatureBase64)) return undefined
  const sig = new Uint8Array(Buffer.from(signatureBase64, "base64"))
  if (sig.length !== 65) return undefined
  const header = sig[0]!
  if (header < 27 || header > 42) return undefined
  const pub = recoverPublicKey(sig.subarray(1, 33), sig.subarray(33, 65), (header - 27) & 3, bitcoinMessageDigest(utf8(message)))
  return pub === undefined ? undefined : { publicKey: pub, header }
}

const p2wpkhHash = (pub33: Uint8Array) => hash160(pub33)
const p2shP2wpkhHash = (pub33: Uint8Array) => hash160(concatBytes(Uint8Array.of(0x00, 0x14), hash160(pub33)))

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b))

/** Whether the signature over the exact message is by the key behind `address`. */
export const verifyBitcoinMessage = (address: string, message: string, signatureBase64: string, scheme: BitcoinScheme = "bip137"): boolean => {
  const addr = parseBitcoinAddress(address)
  const signer = recoverBitcoinSigner(message, signatureBase64)
  if (addr === undefined || signer === undefined) return false
  const { header } = signer
  const isCompressed = header >= 31
  const key = isCompressed ? compressed(signer.publicKey) : uncompressed(signer.publicKey)
  if (scheme === "electrum") {
    if (header > 34) return false
    if (addr.type === "P2PKH") return same(hash160(key), addr.hash)
    // Segwit keys are always compressed.
    return isCompressed && same(addr.type === "P2WPKH" ? p2wpkhHash(key) : p2shP2wpkhHash(key), addr.hash)
  }
  if (header <= 34) return addr.type === "P2PKH" && same(hash160(key), addr.hash)
  if (header <= 38) return addr.type === "P2SH" && same(p2shP2wpkhHash(key), addr.hash)
  return addr.type === "P2WPKH" && same(p2wpkhHash(key), addr.hash)
}
