import bs58 from "bs58"
import { concatBytes, utf8 } from "../encoding.ts"
import { recoverPrefixed } from "./evm.ts"
import { sha256d } from "./secp256k1.ts"

/**
 * TIP-191 (TronWeb `signMessageV2`): the EIP-191 construction with the prefix
 * "\x19TRON Signed Message:\n" + byte length; the address is base58check(0x41 ‖ account20).
 * The legacy fixed-"32" header is not accepted: challenges are signed with v2.
 */
export const tronAccount = (address: string): Uint8Array | undefined => {
  let raw: Uint8Array
  try {
    raw = bs58.decode(address)
  } catch {
    return undefined
  }
  if (raw.length !== 25 || raw[0] !== 0x41) return undefined
  const check = sha256d(raw.subarray(0, 21)).subarray(0, 4)
  return Buffer.from(check).equals(Buffer.from(raw.subarray(21))) ? raw.subarray(1, 21) : undefined
}

export const tronAddress = (account20: Uint8Array): string => {
  const payload = concatBytes(Uint8Array.of(0x41), account20)
  return bs58.encode(concatBytes(payload, sha256d(payload).subarray(0, 4)))
}

export const isTronAddress = (address: string): boolean => tronAccount(address) !== undefined

export const verifyTip191 = (address: string, message: string, signatureHex: string): boolean => {
  const expected = tronAccount(address)
  if (expected === undefined) return false
  const account = recoverPrefixed("\u0019TRON Signed Message:\n", utf8(message), signatureHex)
  return account !== undefined && Buffer.from(account).equals(Buffer.from(expected))
}
