import { randomFillSync, randomUUID } from "node:crypto"
import { Context, Effect, Layer } from "effect"

export interface IdsService {
  /**
   * A fresh uuid, lower case: RFC 9562 version 7 (time-ordered) from the default source,
   * version 4 from a seeded one (DECISIONS #487).
   */
  readonly uuid: Effect.Effect<string>
  /** `n` fresh random bytes (nonces, generated identifiers). */
  readonly bytes: (n: number) => Effect.Effect<Uint8Array>
}

const hex = (b: Uint8Array): string => {
  let s = ""
  for (const x of b) s += x.toString(16).padStart(2, "0")
  return s
}

/** Formats 16 random bytes as a v4 uuid (version and variant bits set). */
export const uuidFromBytes = (b: Uint8Array): string => {
  const c = Uint8Array.from(b.subarray(0, 16))
  c[6] = (c[6]! & 0x0f) | 0x40
  c[8] = (c[8]! & 0x3f) | 0x80
  const h = hex(c)
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}

/**
 * sfc32: a small, fast, well-mixed PRNG. Only used for seeded (reproducible) runs, never where
 * unpredictability matters; the default layer draws from the platform CSPRNG.
 */
const sfc32 = (seed: number) => {
  let a = 0x9e3779b9 ^ seed
  let b = 0x243f6a88
  let c = 0xb7e15162
  let d = seed | 0
  const next = (): number => {
    a |= 0; b |= 0; c |= 0; d |= 0
    const t = (((a + b) | 0) + d) | 0
    d = (d + 1) | 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) | 0
    c = (c << 21) | (c >>> 11)
    c = (c + t) | 0
    return t >>> 0
  }
  for (let i = 0; i < 16; i++) next()
  return next
}

export const seededIds = (seed: number): IdsService => {
  const next = sfc32(seed)
  const bytes = (n: number) => {
    const out = new Uint8Array(n)
    for (let i = 0; i < n; i += 4) {
      const v = next()
      for (let j = 0; j < 4 && i + j < n; j++) out[i + j] = (v >>> (8 * j)) & 0xff
    }
    return out
  }
  return {
    uuid: Effect.sync(() => uuidFromBytes(bytes(16))),
    bytes: (n) => Effect.sync(() => bytes(n))
  }
}

/**
 * A fresh RFC 9562 version-7 uuid: the Unix time in milliseconds (48 bits), the version, then 74
 * random bits (a v4 uuid's, variant included). The ids a sandbox hands out look like the
 * reference's examples (`019542f5-b3e7-…`), and ids made one after the other sort together, so
 * the rows a store keys by them are appended near each other instead of landing on random pages
 * of its B-trees (DECISIONS #487). The time is the machine's, not the engine's clock: an id says
 * when it was made, not what a virtual clock read.
 */
export const timeOrderedUuid = (ms: number = Date.now()): string => {
  // The time's digits change once a millisecond; a creation draws three uuids (#451's budget).
  if (ms !== prefixMs) {
    const t = ms.toString(16).padStart(12, "0")
    prefix = `${t.slice(0, 8)}-${t.slice(8, 12)}-7`
    prefixMs = ms
  }
  // A v4 uuid from its 15th character on: 12 random bits, the variant, 62 random bits.
  // node:crypto's own randomUUID: WebCrypto's (`globalThis.crypto`) checks its receiver on
  // every call and loads WebCrypto's module at the first one.
  return prefix + randomUUID().slice(15)
}
let prefixMs = -1
let prefix = ""

export const randomIds: IdsService = {
  uuid: Effect.sync(() => timeOrderedUuid()),
  bytes: (n) => Effect.sync(() => randomFillSync(new Uint8Array(n)))
}

export class Ids extends Context.Tag("@tessera/Ids")<Ids, IdsService>() {
  static readonly random = Layer.succeed(Ids, randomIds)
  /** Same seed, same ids, byte for byte: for reproducible property runs. */
  static readonly seeded = (seed: number) => Layer.sync(Ids, () => seededIds(seed))
}
