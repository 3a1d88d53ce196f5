import { hash, randomBytes, scrypt, scryptSync, timingSafeEqual } from "node:crypto"
import { SECRET_SCRYPT } from "../limits.ts"

/** Compares two byte strings in time that depends only on their lengths, never their contents. */
export const constantTimeEqual = (a: Uint8Array, b: Uint8Array): boolean => {
  if (a.length !== b.length) return false
  return timingSafeEqual(a, b)
}

/**
 * Compares two strings without an early exit: the time depends on the lengths only, and the
 * loop runs over the first string's length whatever the second's, so a guess learns nothing
 * from where it first differs. For secrets compared on every request, where hashing both sides
 * into bytes first would cost more than the rest of the check.
 */
export const constantTimeEqualText = (expected: string, given: string): boolean => {
  let diff = expected.length ^ given.length
  const n = given.length
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ (n === 0 ? 0 : given.charCodeAt(i % n))
  return diff === 0
}

// node:crypto rather than @noble/hashes: every request authenticates, and the native hash is
// several times cheaper than noble's plus the UTF-8 encoding around it.
export const sha256Hex = (text: string): string => hash("sha256", text, "hex")

const { N, r, p, keyLength } = SECRET_SCRYPT
// scrypt needs 128·N·r bytes; Node's default cap (32 MiB) is just enough for these parameters.
const SCRYPT_OPTIONS = { N, r, p, maxmem: 256 * N * r }

const encodeHash = (salt: Buffer, derived: Buffer) => `scrypt$${N}$${r}$${p}$${salt.toString("base64")}$${derived.toString("base64")}`

/** `scrypt$N$r$p$<salt b64>$<hash b64>`: the parameters travel with the hash, so they can change. */
export const hashSecret = (secret: string): string => {
  const salt = randomBytes(16)
  return encodeHash(salt, scryptSync(secret, salt, keyLength, SCRYPT_OPTIONS))
}

/**
 * `hashSecret` off the event loop (libuv's thread pool): ~35 ms of key derivation that a caller
 * can overlap with other work, as the CLI does with its start.
 */
export const hashSecretAsync = (secret: string): Promise<string> => {
  const salt = randomBytes(16)
  return new Promise((resolve, reject) =>
    scrypt(secret, salt, keyLength, SCRYPT_OPTIONS, (err, derived) => (err === null ? resolve(encodeHash(salt, derived)) : reject(err)))
  )
}

const parseSecretHash = (encoded: string) => {
  const m = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/.exec(encoded)
  if (m === null) return undefined
  const [n, rr, pp] = [Number(m[1]), Number(m[2]), Number(m[3])]
  // Bounded so a corrupt record cannot ask for gigabytes of memory.
  if (!(n >= 2 && n <= 1 << 20 && rr >= 1 && rr <= 32 && pp >= 1 && pp <= 16)) return undefined
  return { N: n, r: rr, p: pp, salt: Buffer.from(m[4]!, "base64"), hash: Buffer.from(m[5]!, "base64") }
}

/**
 * Whether `secret` matches an encoded scrypt hash, off the event loop (libuv's thread pool). A
 * malformed hash never matches; the comparison is constant-time.
 */
export const verifySecretHash = (secret: string, encoded: string): Promise<boolean> => {
  const parsed = parseSecretHash(encoded)
  const target = parsed ?? { N, r, p, salt: Buffer.alloc(16), hash: Buffer.alloc(keyLength) }
  return new Promise((resolve) =>
    scrypt(secret, target.salt, target.hash.length, { N: target.N, r: target.r, p: target.p, maxmem: 256 * target.N * target.r }, (err, derived) =>
      resolve(err === null && parsed !== undefined && timingSafeEqual(derived, target.hash))
    )
  )
}

