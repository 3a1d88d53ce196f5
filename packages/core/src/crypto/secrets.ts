import { hash, timingSafeEqual } from "node:crypto"

/** Compares two byte strings in time that depends only on their lengths, never their contents. */
export const constantTimeEqual = (a: Uint8Array, b: Uint8Array): boolean => {
  if (a.length !== b.length) return false
  return timingSafeEqual(a, b)
}

// node:crypto rather than @noble/hashes: every request authenticates, and the native hash is
// several times cheaper than noble's plus the UTF-8 encoding around it.
export const sha256Hex = (text: string): string => hash("sha256", text, "hex")

const ZERO_DIGEST = Buffer.alloc(32)

/** Whether `secret` hashes to `expectedSha256Hex`; both sides are fixed-length digests. */
export const secretMatches = (secret: string, expectedSha256Hex: string): boolean => {
  const actual = hash("sha256", secret, "buffer")
  const expected = /^[0-9a-f]{64}$/.test(expectedSha256Hex) ? Buffer.from(expectedSha256Hex, "hex") : ZERO_DIGEST
  // Always compare, even against the zero digest of a malformed record, so timing stays flat.
  return timingSafeEqual(actual, expected) && expected !== ZERO_DIGEST
}
