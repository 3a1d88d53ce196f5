import { describe, expect, it } from "vitest"
import { base58checkDecode, base58checkEncode, bech32Decode, bytesToHex, decodeSegwit } from "@tessera/core/crypto"

// Known answers from BIP-173 and BIP-350 (their published test vectors).
describe("bech32 / bech32m on @scure/base", () => {
  it("tells the variant by the checksum", () => {
    expect(bech32Decode("A12UEL5L")).toMatchObject({ hrp: "a", variant: "bech32" })
    expect(bech32Decode("abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw")).toMatchObject({ hrp: "abcdef", variant: "bech32" })
    expect(bech32Decode("A1LQFN3A")).toMatchObject({ hrp: "a", variant: "bech32m" })
    expect(bech32Decode("abcdef1l7aum6echk45nj3s0wdvt2fg8x9yrzpqzd3ryx")).toMatchObject({ hrp: "abcdef", variant: "bech32m" })
  })
  it("refuses mixed case, a bad checksum and a missing separator", () => {
    expect(bech32Decode("a12UEL5L")).toBeUndefined()
    expect(bech32Decode("A12UEL5M")).toBeUndefined()
    expect(bech32Decode("pzry9x0s0muk")).toBeUndefined()
  })
  it("decodes segwit v0 (bech32) and refuses a v0 program under the bech32m checksum", () => {
    const v0 = decodeSegwit("BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4".toLowerCase(), "bc")
    expect(v0 && { version: v0.version, program: bytesToHex(v0.program) }).toEqual({ version: 0, program: "751e76e8199196d454941c45d1b3a323f1433bd6" })
    expect(decodeSegwit("bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs", "bc")).toMatchObject({ version: 2 })
    expect(decodeSegwit("bc1zw508d6qejxtdg4y5r3zarvaryvqyzf3du", "bc")).toBeUndefined()
  })
})

describe("base58check on @scure/base", () => {
  it("round-trips and refuses a changed character", () => {
    const payload = Uint8Array.of(0x41, ...Array.from({ length: 20 }, (_, i) => i))
    const text = base58checkEncode(payload)
    expect(bytesToHex(base58checkDecode(text)!)).toBe(bytesToHex(payload))
    const flipped = text.slice(0, -1) + (text.endsWith("1") ? "2" : "1")
    expect(base58checkDecode(flipped)).toBeUndefined()
    expect(base58checkDecode("0OIl")).toBeUndefined()
  })
})
