/**
 * A minimal CBOR (RFC 8949) reader: enough for WebAuthn attestation objects and COSE keys
 * (unsigned and negative integers, byte and text strings, arrays, maps, simple values).
 * Returns undefined for anything malformed, truncated, indefinite-length or nested too deep.
 */
import { CBOR_MAX_DEPTH } from "../limits.ts"
export type Cbor = number | Uint8Array | string | boolean | null | undefined | ReadonlyArray<Cbor> | Map<Cbor, Cbor>

interface Reader {
  readonly b: Uint8Array
  at: number
}


const readLength = (r: Reader, info: number): number | undefined => {
  if (info < 24) return info
  const n = info === 24 ? 1 : info === 25 ? 2 : info === 26 ? 4 : info === 27 ? 8 : 0
  if (n === 0 || r.at + n > r.b.length) return undefined
  let v = 0
  for (let i = 0; i < n; i++) v = v * 256 + r.b[r.at + i]!
  r.at += n
  return Number.isSafeInteger(v) ? v : undefined
}

const readItem = (r: Reader, depth: number): { readonly value: Cbor } | undefined => {
  if (depth > CBOR_MAX_DEPTH || r.at >= r.b.length) return undefined
  const head = r.b[r.at++]!
  const major = head >> 5
  const info = head & 0x1f
  if (major === 7) {
    if (info === 20) return { value: false }
    if (info === 21) return { value: true }
    if (info === 22) return { value: null }
    if (info === 23) return { value: undefined }
    return undefined
  }
  const len = readLength(r, info)
  if (len === undefined) return undefined
  switch (major) {
    case 0:
      return { value: len }
    case 1:
      return { value: -1 - len }
    case 2:
    case 3: {
      if (r.at + len > r.b.length) return undefined
      const bytes = r.b.subarray(r.at, r.at + len)
      r.at += len
      return { value: major === 2 ? bytes : Buffer.from(bytes).toString("utf8") }
    }
    case 4: {
      const out: Array<Cbor> = []
      for (let i = 0; i < len; i++) {
        const item = readItem(r, depth + 1)
        if (item === undefined) return undefined
        out.push(item.value)
      }
      return { value: out }
    }
    case 5: {
      const out = new Map<Cbor, Cbor>()
      for (let i = 0; i < len; i++) {
        const k = readItem(r, depth + 1)
        const v = k === undefined ? undefined : readItem(r, depth + 1)
        if (k === undefined || v === undefined) return undefined
        out.set(k.value, v.value)
      }
      return { value: out }
    }
    default:
      return undefined
  }
}

/** Decodes the first item; `rest` is where it ended (authData carries a COSE key then extensions). */
export const decodeCbor = (bytes: Uint8Array, from = 0): { readonly value: Cbor; readonly end: number } | undefined => {
  const r: Reader = { b: bytes, at: from }
  const item = readItem(r, 0)
  return item === undefined ? undefined : { value: item.value, end: r.at }
}
