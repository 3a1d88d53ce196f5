/**
 * CBOR (RFC 8949) for WebAuthn attestation objects and COSE keys, decoded by `cbor2` under a
 * strict profile: definite lengths only, shortest ("preferred") heads, no duplicate map keys,
 * bounded nesting, no trailing bytes. What `cbor2` would still hand back beyond the WebAuthn
 * data model (tags, floats, big integers, other simple values) is refused here, so every
 * caller sees only the types below. Malformed input of any shape is `undefined`, never a throw.
 */
import { decode, decodeSequence, type DecodeOptions } from "cbor2"
import { CBOR_MAX_BYTES, CBOR_MAX_DEPTH } from "../limits.ts"

export type Cbor = number | Uint8Array | string | boolean | null | undefined | ReadonlyArray<Cbor> | Map<Cbor, Cbor>

const strict: DecodeOptions = {
  // cbor2 counts an array level twice and a map level once; its bound only stops runaway
  // nesting early, `inModel` then applies CBOR_MAX_DEPTH the same way to both.
  maxDepth: 2 * CBOR_MAX_DEPTH,
  rejectStreaming: true,
  requirePreferred: true,
  rejectDuplicateKeys: true,
  rejectSimple: true,
  rejectFloats: true,
  rejectBigInts: true,
  rejectLargeNegatives: true,
  preferMap: true,
  ignoreGlobalTags: true
}

/** Whether a decoded value stays inside the WebAuthn data model (cbor2 also yields tags, bigints). */
const inModel = (v: unknown, depth: number): v is Cbor => {
  if (depth > CBOR_MAX_DEPTH) return false
  if (v === null || v === undefined || typeof v === "boolean" || typeof v === "string") return true
  if (typeof v === "number") return Number.isSafeInteger(v)
  if (v instanceof Uint8Array) return true
  if (Array.isArray(v)) return v.every((x) => inModel(x, depth + 1))
  if (v instanceof Map) {
    for (const [k, x] of v) if (!inModel(k, depth + 1) || !inModel(x, depth + 1)) return false
    return true
  }
  return false
}

// cbor2 reads its input through a DataView, so a Node Buffer (a view into a shared pool) is
// passed as a plain Uint8Array over exactly its own bytes.
const view = (b: Uint8Array, from: number) => new Uint8Array(b.buffer, b.byteOffset + from, b.byteLength - from)

/** The one item `bytes` holds, nothing before or after it; undefined when malformed. */
export const decodeCbor = (bytes: Uint8Array): { readonly value: Cbor } | undefined => {
  if (bytes.byteLength > CBOR_MAX_BYTES) return undefined
  try {
    const value: unknown = decode(view(bytes, 0), strict)
    return inModel(value, 0) ? { value } : undefined
  } catch {
    return undefined
  }
}

/**
 * The items from `from` to the end, in order (authenticator data carries a COSE key, then an
 * extensions map when its ED flag is set); undefined if any is malformed or more than `max`.
 */
export const decodeCborItems = (bytes: Uint8Array, from: number, max: number): ReadonlyArray<Cbor> | undefined => {
  if (from < 0 || from >= bytes.byteLength || bytes.byteLength - from > CBOR_MAX_BYTES) return undefined
  try {
    const out: Array<Cbor> = []
    for (const value of decodeSequence<unknown>(view(bytes, from), strict)) {
      if (out.length === max || !inModel(value, 0)) return undefined
      out.push(value)
    }
    return out
  } catch {
    return undefined
  }
}
