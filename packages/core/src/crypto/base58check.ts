import { createHash } from "node:crypto"
import bs58 from "bs58"
import { concatBytes } from "./encoding.ts"

/** SHA-256 twice (base58check checksums, Bitcoin message digests). */
export const sha256d = (b: Uint8Array): Uint8Array => new Uint8Array(createHash("sha256").update(createHash("sha256").update(b).digest()).digest())

/** base58check: payload ‖ first 4 bytes of SHA-256(SHA-256(payload)), in the Bitcoin alphabet. */
export const base58checkEncode = (payload: Uint8Array): string => bs58.encode(concatBytes(payload, sha256d(payload).subarray(0, 4)))

/** The payload (version byte included, if any), or undefined for a bad character or checksum. */
export const base58checkDecode = (text: string): Uint8Array | undefined => {
  let raw: Uint8Array
  try {
    raw = bs58.decode(text)
  } catch {
    return undefined
  }
  if (raw.length < 5) return undefined
  const payload = raw.subarray(0, raw.length - 4)
  return Buffer.from(sha256d(payload).subarray(0, 4)).equals(Buffer.from(raw.subarray(raw.length - 4))) ? payload : undefined
}
