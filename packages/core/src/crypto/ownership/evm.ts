import { bytesToHex, concatBytes, hexToBytes, utf8 } from "../encoding.ts"
import { keccak256, keccakAccount, recoverPublicKey } from "./secp256k1.ts"

/**
 * EIP-191 `personal_sign` for Ethereum, Base, Polygon and Plasma (DECISIONS #13): 65-byte hex
 * r‖s‖v (v 27/28 or 0/1) over keccak256("\x19Ethereum Signed Message:\n" + byte length + message).
 */
const EVM_ADDRESS = /^(0x)?[0-9a-fA-F]{40}$/

/** EIP-55: a mixed-case address carries a checksum; all-lower or all-upper carries none. */
export const isEvmAddress = (address: string): boolean => {
  if (!EVM_ADDRESS.test(address)) return false
  const hex = address.replace(/^0x/, "")
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return true
  const hash = bytesToHex(keccak256(utf8(hex.toLowerCase())))
  for (let i = 0; i < 40; i++) {
    const c = hex[i]!
    if (/[a-f]/i.test(c) && (parseInt(hash[i]!, 16) >= 8 ? c !== c.toUpperCase() : c !== c.toLowerCase())) return false
  }
  return true
}

/** The signer of a `prefix + length + message` digest, as 20 account bytes; undefined if the signature is malformed. */
export const recoverPrefixed = (prefix: string, message: Uint8Array, signatureHex: string): Uint8Array | undefined => {
  const sig = hexToBytes(signatureHex.replace(/^0x/, ""))
  if (sig === undefined || sig.length !== 65) return undefined
  const v = sig[64]!
  const recid = v >= 27 ? v - 27 : v
  if (recid !== 0 && recid !== 1) return undefined
  const digest = keccak256(concatBytes(utf8(`${prefix}${message.length}`), message))
  const pub = recoverPublicKey(sig.subarray(0, 32), sig.subarray(32, 64), recid, digest)
  return pub === undefined ? undefined : keccakAccount(pub)
}

export const verifyEip191 = (address: string, message: string, signatureHex: string): boolean => {
  if (!isEvmAddress(address)) return false
  const account = recoverPrefixed("\u0019Ethereum Signed Message:\n", utf8(message), signatureHex)
  return account !== undefined && bytesToHex(account) === address.replace(/^0x/, "").toLowerCase()
}
