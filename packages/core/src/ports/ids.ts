import { randomFillSync } from "node:crypto"
import { closeSync, fstatSync, openSync, readSync } from "node:fs"
import { Context, Effect, Layer } from "effect"

export interface IdsService {
  /**
   * A fresh uuid, lower case: RFC 9562 version 7 (time-ordered) from the default source,
   * version 4 from a seeded one (DECISIONS #487).
   */
  readonly uuid: Effect.Effect<string>
  /**
   * The same uuid drawn outside Effect, from the same sequence, as Effect's Clock has
   * `unsafeCurrentTimeMillis`: for the engine's hottest operation, which draws its ids inside
   * steps it runs anyway instead of paying two more per id (DECISIONS #533).
   */
  readonly unsafeUuid?: () => string
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
  const unsafeUuid = () => uuidFromBytes(bytes(16))
  return {
    uuid: Effect.sync(unsafeUuid),
    unsafeUuid,
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
  if (ms !== textMs) {
    const t = ms.toString(16).padStart(12, "0")
    text.write(t.slice(0, 8), 0, "latin1")
    text.write(t.slice(8, 12), 9, "latin1")
    textMs = ms
  }
  if (poolAt > RANDOM_POOL - 10) {
    fillPool(pool)
    poolAt = 0
  }
  // 74 random bits from 10 pooled bytes: 12 after the version, 2 in the variant's digit, 12
  // after it, then 48.
  const r = pool
  const i = poolAt
  poolAt += 10
  text[15] = HEX[r[i]! >> 4]!
  text[16] = HEX[r[i]! & 15]!
  text[17] = HEX[r[i + 1]! >> 4]!
  text[19] = HEX[8 | (r[i + 1]! & 3)]!
  text[20] = HEX[r[i + 2]! >> 4]!
  text[21] = HEX[r[i + 2]! & 15]!
  text[22] = HEX[r[i + 3]! >> 4]!
  for (let k = 4, at = 24; k < 10; k++, at += 2) {
    text[at] = HEX[r[i + k]! >> 4]!
    text[at + 1] = HEX[r[i + k]! & 15]!
  }
  return text.toString("latin1", 0, 36)
}
/**
 * The uuid's characters are written into one buffer and read out as one flat string (DECISIONS
 * #511): `randomUUID()` builds its string from ~20 concatenations, which the slice after its
 * 15th character flattened again, ~0.13 µs and ~700 bytes of garbage per uuid. The random bits
 * come from the same CSPRNG, drawn 4 KiB at a time (`randomUUID` too draws its bytes in batches).
 */
const RANDOM_POOL = 4096
const pool = new Uint8Array(RANDOM_POOL)
let firstFill = true

/**
 * Fills the pool from a CSPRNG: node:crypto's, except the process's first fill, which reads the
 * kernel's generator directly where there is one (/dev/urandom on Linux and macOS). A server's
 * start draws one uuid (a new platform's id) and nothing else from node:crypto, whose ~15 modules
 * took ~2 ms of it to load; the CLI's bundle loads node:crypto at its first use instead
 * (DECISIONS #521). The path must be a character device (on Windows it would name a file anyone
 * could create, so it is not tried there) read in full; otherwise node:crypto fills the pool, as
 * it does every later fill.
 */
const fillPool = (into: Uint8Array): void => {
  if (firstFill) {
    firstFill = false
    if (process.platform !== "win32")
      try {
        const fd = openSync("/dev/urandom", "r")
        try {
          if (fstatSync(fd).isCharacterDevice() && readSync(fd, into, 0, into.length, null) === into.length) return
        } finally {
          closeSync(fd)
        }
      } catch {
        // No such device: node:crypto below.
      }
  }
  randomFillSync(into)
}
let poolAt = RANDOM_POOL
const HEX = Uint8Array.from("0123456789abcdef", (c) => c.charCodeAt(0))
const text = Buffer.from("00000000-0000-7000-8000-000000000000", "latin1")
let textMs = -1

const unsafeUuid = () => timeOrderedUuid()
export const randomIds: IdsService = {
  uuid: Effect.sync(unsafeUuid),
  unsafeUuid,
  bytes: (n) => Effect.sync(() => randomFillSync(new Uint8Array(n)))
}

/** `ids.unsafeUuid()`, or for an Ids service without it (one an embedder wrote) its `uuid` run here. */
export const drawUuid = (ids: IdsService): string => (ids.unsafeUuid === undefined ? Effect.runSync(ids.uuid) : ids.unsafeUuid())

export class Ids extends Context.Tag("@tessera/Ids")<Ids, IdsService>() {
  static readonly random = Layer.succeed(Ids, randomIds)
  /** Same seed, same ids, byte for byte: for reproducible property runs. */
  static readonly seeded = (seed: number) => Layer.sync(Ids, () => seededIds(seed))
}
