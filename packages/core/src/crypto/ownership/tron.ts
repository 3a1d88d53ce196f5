import { concatBytes, utf8 } from "../encoding.ts"
import { recoverPrefixed } from "./evm.ts"
import { base58checkDecode, base58checkEncode } from "../base58check.ts"

/**
 * TIP-191 (TronWeb `signMessageV2`): the EIP-191 construction with the prefix
 * "\x19TRON Signed Message:\n" + byte length; the address is base58check(0x41 ‖ account20).
 * The legacy fixed-"32" header is not accepted: challenges are signed with v2.
 */
export const tronAccount = (address: string): Uint8Array | undefined => {
  const raw = base58checkDecode(address)
  return raw !== undefined && raw.length === 21 && raw[0] === 0x41 ? raw.subarray(1) : undefined
}

export const tronAddress = (account20: Uint8Array): string => base58checkEncode(concatBytes(Uint8Array.of(0x41), account20))

export const isTronAddress = (address: string): boolean => tronAccount(address) !== undefined

export const verifyTip191 = (address: string, message: string, signatureHex: string): boolean => {
  const expected = tronAccount(address)
  if (expected === undefined) return false
  const account = recoverPrefixed("\u0019TRON Signed Message:\n", utf8(message), signatureHex)
  return account !== undefined && Buffer.from(account).equals(Buffer.from(expected))
}
