import { describe, expect, it } from "vitest"
import fc from "fast-check"
import bs58 from "bs58"
import nacl from "tweetnacl"
// bitcoinjs-message is a test oracle only (it falls back to old elliptic code here).
import bitcoinMessage from "bitcoinjs-message"
import {
  isEvmAddress,
  sparkAddress,
  sparkIdentityKey,
  verifyBitcoinMessage,
  verifyEip191,
  verifySolana,
  verifySparkMessage,
  verifyTip191
} from "@tessera/core/crypto"
import { bitcoinSigner, type ChainSigner, evmSigner, solanaSigner, sparkSigner, tronSigner } from "@tessera/core/testing"
import { vectors } from "./vectors.ts"

const msgOf = (v: Record<string, any>) =>
  v["message"] ?? (v["message_repeat"] ? (v["message_repeat"].unit as string).repeat(v["message_repeat"].times) : Buffer.from(v["message_hex"], "hex").toString("latin1"))

describe("ownership schemes: known answers", () => {
  for (const v of vectors["eip191"]!) {
    if (v["message_hex"] !== undefined) {
      it(`EIP-191 ${v["id"]}: a hex-looking message is verified as its text, never decoded`, () => {
        expect(verifyEip191(v["address"], v["message_if_read_as_text"], v["signature"])).toBe(false)
      })
      continue
    }
    it(`EIP-191 ${v["id"]}`, () => expect(verifyEip191(v["address"], msgOf(v), v["signature"])).toBe(v["expected"]))
  }
  it("TIP-191 current version verifies; the legacy fixed-32 header does not", () => {
    const [v2, legacy] = vectors["tron"]!
    expect(verifyTip191(v2!["address_derived"], v2!["message"], v2!["signature"])).toBe(true)
    expect(verifyTip191(legacy!["address_derived"], legacy!["message"], legacy!["signature"])).toBe(false)
  })
  for (const v of vectors["bitcoin"]!) {
    it(`Bitcoin ${v["id"]} (${v["style"]})`, () => {
      const message = v["verify_after_trim"] ? (v["message"] as string).trim() : v["message"]
      expect(verifyBitcoinMessage(v["address"], message, v["signature"], v["style"])).toBe(v["expected"])
      if (v["verify_after_trim"]) expect(verifyBitcoinMessage(v["address"], v["message"], v["signature"], v["style"])).toBe(false)
    })
  }
  for (const v of vectors["solana_ed25519"]!) {
    it(`Solana ${v["id"]}`, () => {
      const message = v["message"] ?? Buffer.from(v["message_hex"], "hex").toString("utf8")
      expect(verifySolana(v["address"], message, v["signature_b58"])).toBe(v["expected"])
    })
  }
  it("Solana refuses the identity key (small order), whose 'signature' verifies for any message under lax rules", () => {
    const identity = bs58.encode(Uint8Array.of(1, ...new Uint8Array(31)))
    const sig = bs58.encode(Uint8Array.of(1, ...new Uint8Array(63)))
    expect(nacl.sign.detached.verify(Buffer.from("anything"), bs58.decode(sig), bs58.decode(identity))).toBe(true)
    expect(verifySolana(identity, "anything", sig)).toBe(false)
  })
  it("Spark: a published legacy `sp1` address decodes to its identity key and re-encodes under `spark`", () => {
    // From the public Spark implementation guide's example wallet (an address, not a secret).
    const legacy = "sp1pgss8u5vh4cldqxarcl2hnqgqelhupdt6g9e9y5x489t8ky355f3veh6dln5pf"
    const key = sparkIdentityKey(legacy)!
    expect(Buffer.from(key).toString("hex")).toBe("03f28cbd71f680dd1e3eabcc08067f7e05abd20b929286a9cab3d891a5131666fa")
    expect(sparkIdentityKey(sparkAddress(key))).toEqual(key)
    expect(sparkIdentityKey(legacy.slice(0, -1) + "q")).toBeUndefined()
  })
  it("EIP-55: a mixed-case address with a bad checksum is not an address", () => {
    expect(isEvmAddress("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266")).toBe(true)
    expect(isEvmAddress("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266")).toBe(true)
    expect(isEvmAddress("0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266")).toBe(false)
  })
})

const seed = fc.uint8Array({ minLength: 32, maxLength: 32 })
const schemes: ReadonlyArray<[string, (s: Uint8Array) => ChainSigner, (a: string, m: string, sig: string) => boolean]> = [
  ["EIP-191", (s) => evmSigner(s), verifyEip191],
  ["TIP-191", (s) => tronSigner(s), verifyTip191],
  ["BIP-137 P2PKH", (s) => bitcoinSigner("P2PKH", "bip137", s), (a, m, g) => verifyBitcoinMessage(a, m, g, "bip137")],
  ["BIP-137 P2SH-P2WPKH", (s) => bitcoinSigner("P2SH-P2WPKH", "bip137", s), (a, m, g) => verifyBitcoinMessage(a, m, g, "bip137")],
  ["BIP-137 P2WPKH", (s) => bitcoinSigner("P2WPKH", "bip137", s), (a, m, g) => verifyBitcoinMessage(a, m, g, "bip137")],
  ["electrum P2WPKH", (s) => bitcoinSigner("P2WPKH", "electrum", s), (a, m, g) => verifyBitcoinMessage(a, m, g, "electrum")],
  ["Solana", (s) => solanaSigner(s), verifySolana],
  ["Spark", (s) => sparkSigner(s), verifySparkMessage]
]

describe.each(schemes)("%s round trips", (_name, signer, verify) => {
  it("random keys sign random messages → accepted; another message, key or a flipped bit → rejected", () => {
    fc.assert(
      fc.property(seed, seed, fc.string({ minLength: 1, maxLength: 200 }), fc.string({ minLength: 1 }), fc.nat(), (s1, s2, message, other, bit) => {
        const a = signer(s1)
        const sig = a.sign(message)
        expect(verify(a.address, message, sig)).toBe(true)
        if (other !== message) expect(verify(a.address, other, sig)).toBe(false)
        const b = signer(s2)
        if (b.address !== a.address) expect(verify(b.address, message, sig)).toBe(false)
        // Flip one character of the encoded signature: never accepted, never thrown.
        const i = bit % sig.length
        const flipped = sig.slice(0, i) + (sig[i] === "A" ? "B" : sig[i] === "1" ? "2" : sig[i] === "a" ? "b" : "A") + sig.slice(i + 1)
        if (flipped !== sig) expect(() => verify(a.address, message, flipped)).not.toThrow()
      }),
      { numRuns: 25 }
    )
  })
})

describe("oracles (independent libraries)", () => {
  it("bitcoinjs-message agrees on BIP-137 signatures of every address type", () => {
    fc.assert(
      fc.property(seed, fc.constantFrom("P2PKH", "P2SH-P2WPKH", "P2WPKH") as fc.Arbitrary<"P2PKH" | "P2SH-P2WPKH" | "P2WPKH">, fc.string({ minLength: 1, maxLength: 80 }), (s, type, message) => {
        const a = bitcoinSigner(type, "bip137", s)
        expect(bitcoinMessage.verify(message, a.address, a.sign(message))).toBe(true)
      }),
      { numRuns: 10 }
    )
  })
  it("tweetnacl agrees on Solana signatures", () => {
    fc.assert(
      fc.property(seed, fc.string({ maxLength: 80 }), (s, message) => {
        const a = solanaSigner(s)
        expect(nacl.sign.detached.verify(Buffer.from(message, "utf8"), bs58.decode(a.sign(message)), bs58.decode(a.address))).toBe(true)
      }),
      { numRuns: 20 }
    )
  })
  it("malformed signatures of every encoding are false, never a throw", () => {
    const garbage = ["", "0x", "zz", "====", "A".repeat(88), "0x" + "00".repeat(65), Buffer.alloc(65).toString("base64"), bs58.encode(new Uint8Array(64)), "30", "%%%"]
    for (const [, signer, verify] of schemes) {
      const a = signer(new Uint8Array(32).fill(3))
      for (const g of garbage) expect(verify(a.address, "m", g)).toBe(false)
    }
  })
})
