import { sha256 } from "@noble/hashes/sha2.js"
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js"

/** Compares two byte strings in time that depends only on their lengths, never their contents. */
export const constantTimeEqual = (a: Uint8Array, b: Uint8Array): boolean => {
  let diff = a.length ^ b.length
  const n = Math.max(a.length, b.length)
  for (let i = 0; i < n; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0)
  return diff === 0
}

export const sha256Hex = (text: string): string => bytesToHex(sha256(utf8ToBytes(text)))

/** Whether `secret` hashes to `expectedSha256Hex`; both sides are fixed-length digests. */
export const secretMatches = (secret: string, expectedSha256Hex: string): boolean =>
  constantTimeEqual(utf8ToBytes(sha256Hex(secret)), utf8ToBytes(expectedSha256Hex))
