import { createHash } from "node:crypto"
import { createBase58check } from "@scure/base"

/** SHA-256 twice (base58check checksums, Bitcoin message digests). */
export const sha256d = (b: Uint8Array): Uint8Array => new Uint8Array(createHash("sha256").update(createHash("sha256").update(b).digest()).digest())

// @scure/base does the alphabet and the checksum; node:crypto's SHA-256 is the faster hash to hand it.
// Made at the first use, not at load: the CLI bundle loads @scure/base only when it is first
// needed (scripts/bundle-cli.mjs, DECISIONS #475), and a start never needs it.
let codec_: ReturnType<typeof createBase58check> | undefined
const codec = () => (codec_ ??= createBase58check((b: Uint8Array) => new Uint8Array(createHash("sha256").update(b).digest())))

/** base58check: payload ‖ first 4 bytes of SHA-256(SHA-256(payload)), in the Bitcoin alphabet. */
export const base58checkEncode = (payload: Uint8Array): string => codec().encode(payload)

/** The payload (version byte included, if any), or undefined for a bad character or checksum. */
export const base58checkDecode = (text: string): Uint8Array | undefined => {
  try {
    const payload = codec().decode(text)
    return payload.length >= 1 ? payload : undefined
  } catch {
    return undefined
  }
}
