import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { decodeCbor, verifyRegistration } from "@tessera/core/crypto"
import { SoftwarePasskey } from "@tessera/core/testing"

/** Bytes inside a larger buffer, as Node's pooled Buffers are: a reader must not see past them. */
const pooled = (hex: string) => {
  const big = Buffer.alloc(64 + hex.length, 0xee)
  const b = Buffer.from(hex, "hex")
  b.copy(big, 8)
  return big.subarray(8, 8 + b.length)
}

const nested = (levels: number) => "81".repeat(levels) + "01"

describe("strict CBOR: each malformed item is refused, its well-formed twin is read", () => {
  it.each([
    ["an indefinite-length array", "9f01ff", "8101"],
    ["an indefinite-length byte string", "5f4101ff", "4101"],
    ["a duplicate map key", "a201010102", "a201010202"],
    ["an integer in a longer head than needed", "1805", "05"],
    ["a length in a longer head than needed", "59000100", "4100"],
    ["bytes after the item", "0102", "01"],
    ["a byte string cut short", "a1014301", "a1014101"],
    ["nesting deeper than 16 levels", nested(17), nested(16)],
    ["a tag", "c001", "01"],
    ["a float", "fa3f800000", "01"],
    ["an integer beyond 2^53", "1bffffffffffffffff", "1b0000000100000000"],
    ["text that is not UTF-8", "62c328", "626869"],
    ["an array longer than the input", "9bffffffffffffffff", "80"],
    ["a reserved head", "1c", "17"],
    ["a simple value other than true/false/null/undefined", "f820", "f6"],
    ["an item over 16 KiB", "594001" + "00".repeat(16 * 1024 + 1), "59" + "3ffb" + "00".repeat(16 * 1024 - 5)]
  ])("%s", (_, bad, good) => {
    expect(decodeCbor(pooled(bad))).toBeUndefined()
    expect(decodeCbor(pooled(good))).toBeDefined()
  })

  it("reads the WebAuthn data model: maps with int and text keys, byte strings, negatives", () => {
    expect(decodeCbor(new Uint8Array())).toBeUndefined()
    // {1: 2, 3: -7, "k": h'0102', "l": [true, null]}
    const m = decodeCbor(Buffer.from("a40102032661" + "6b" + "420102" + "616c" + "82f5f6", "hex"))?.value
    expect(m).toEqual(
      new Map<unknown, unknown>([
        [1, 2],
        [3, -7],
        ["k", Uint8Array.of(1, 2)],
        ["l", [true, null]]
      ])
    )
  })
})

describe("hostile input never throws", () => {
  it("arbitrary bytes decode to a value of the data model or to undefined", () => {
    const inModel = (v: unknown): boolean =>
      v === null ||
      ["undefined", "boolean", "string"].includes(typeof v) ||
      (typeof v === "number" && Number.isSafeInteger(v)) ||
      v instanceof Uint8Array ||
      (Array.isArray(v) && v.every(inModel)) ||
      (v instanceof Map && [...v].every(([k, x]) => inModel(k) && inModel(x)))
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const d = decodeCbor(bytes)
        expect(d === undefined || inModel(d.value)).toBe(true)
      }),
      { numRuns: 3000 }
    )
  })

  it("a registration whose attestation object is cut, extended or has a byte changed is refused, never thrown", () => {
    const pk = new SoftwarePasskey({ origin: "https://example.com", rpId: "example.com", seed: new Uint8Array(32).fill(7) })
    const reg = pk.register("abc")
    const att = Buffer.from(reg.attestationObject, "base64url")
    expect(verifyRegistration({ challenge: "abc", ...reg }).ok).toBe(true)
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: 0, max: att.length - 1 }).map((n) => att.subarray(0, n)),
          fc.uint8Array({ minLength: 1, maxLength: 8 }).map((tail) => Buffer.concat([att, tail])),
          fc.tuple(fc.integer({ min: 0, max: att.length - 1 }), fc.integer({ min: 1, max: 255 })).map(([i, x]) => {
            const b = Buffer.from(att)
            b[i]! ^= x
            return b
          })
        ),
        (mutated) => {
          const r = verifyRegistration({ challenge: "abc", ...reg, attestationObject: mutated.toString("base64url") })
          // A flipped byte inside the rpIdHash padding, AAGUID or signature counter changes nothing we check.
          if (r.ok) expect(mutated.length).toBe(att.length)
          else expect(typeof r.reason).toBe("string")
        }
      ),
      { numRuns: 1500 }
    )
  })
})
