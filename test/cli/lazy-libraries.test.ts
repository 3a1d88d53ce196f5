// The CLI bundle loads the signature and address libraries (@noble/*, @scure/*) at their first use
// instead of at every start (scripts/bundle-cli.mjs, DECISIONS #475). What they compute must not
// change, no start may load them, and a source the rewrite cannot keep lazy and correct fails the
// build instead of shipping.
import { mkdtempSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import * as published from "@tessera/core/crypto"
import { bitcoinSigner, evmSigner, solanaSigner, sparkSigner, tronSigner } from "@tessera/core/testing"
import { bundleCli, lazyLibraryImports, withLazyLibraryImports } from "../../scripts/bundle-cli.mjs"
import { bundleProbe } from "./bundle-probe.ts"

type Probe = typeof published

const bundledProbe = async (): Promise<Probe> => {
  const outfile = await bundleProbe("crypto-probe.ts", [withLazyLibraryImports])
  const text = readFileSync(outfile, "utf8")
  // The probe's own check that the rewrite happened: the core's modules reach the libraries through loaders.
  expect(text).toMatch(/__lazyLibrary\d+\(\)\.ed25519\.Point/)
  return createRequire(import.meta.url)(outfile) as Probe
}

const seed = (n: number) => Uint8Array.from({ length: 32 }, (_, i) => (i * 7 + n) & 0xff)

describe("signature libraries loaded at first use in the CLI bundle", () => {
  it("signatures, addresses and encodings come out as from the published functions", async () => {
    const bundled = await bundledProbe()
    const signers: ReadonlyArray<[string, (s: Uint8Array) => { address: string; sign: (m: string) => string }, (p: Probe, a: string, m: string, g: string) => boolean]> = [
      ["EIP-191", evmSigner, (p, a, m, g) => p.verifyEip191(a, m, g)],
      ["TIP-191", tronSigner, (p, a, m, g) => p.verifyTip191(a, m, g)],
      ["BIP-137 P2WPKH", (s) => bitcoinSigner("P2WPKH", "bip137", s), (p, a, m, g) => p.verifyBitcoinMessage(a, m, g, "bip137")],
      ["BIP-137 P2PKH", (s) => bitcoinSigner("P2PKH", "bip137", s), (p, a, m, g) => p.verifyBitcoinMessage(a, m, g, "bip137")],
      ["Solana", solanaSigner, (p, a, m, g) => p.verifySolana(a, m, g)],
      ["Spark", sparkSigner, (p, a, m, g) => p.verifySparkMessage(a, m, g)]
    ]
    for (const [name, signer, verify] of signers) {
      const a = signer(seed(name.length))
      const sig = a.sign("prove it")
      expect([name, verify(bundled, a.address, "prove it", sig)]).toEqual([name, true])
      expect([name, verify(bundled, a.address, "prove it!", sig)]).toEqual([name, false])
      expect(verify(bundled, a.address, "prove it", sig)).toBe(verify(published, a.address, "prove it", sig))
    }
    const solana = solanaSigner(seed(1)).address
    const spark = sparkSigner(seed(2)).address
    const tron = tronSigner(seed(3)).address
    const bitcoin = bitcoinSigner("P2WPKH", "bip137", seed(4)).address
    const payload = Uint8Array.from([0, 1, 2, 250, 251, 252])
    const observe = (p: Probe) => ({
      addresses: [p.isSolanaAddress(solana), p.isSparkAddress(spark), p.isTronAddress(tron), p.isBitcoinAddress(bitcoin), p.isSolanaAddress("1111")],
      spark: p.sparkAddress(Uint8Array.from([2, ...seed(5).slice(0, 32)])),
      base58check: p.base58checkEncode(payload),
      decoded: [...(p.base58checkDecode(p.base58checkEncode(payload)) ?? [])],
      bech32: p.bech32Encode("bc", p.convertBits([...payload], 8, 5, true)!, "bech32m"),
      segwit: p.decodeSegwit(bitcoin, "bc"),
      keccak: Buffer.from(p.keccakAccount(Uint8Array.from([2, ...seed(6)]))).toString("hex"),
      mnemonic: p.walletMnemonic(seed(7), "InternalAccount:0191"),
      bech32Decoded: p.bech32Decode(spark, 200)?.variant
    })
    const expected = observe(published)
    expect(expected.addresses).toEqual([true, true, true, true, false])
    expect(expected.mnemonic.split(" ")).toHaveLength(24)
    expect(observe(bundled)).toEqual(expected)
  }, 60_000)

  it("the CLI bundle evaluates them only from the loaders the rewrite wrote", async () => {
    const outfile = join(mkdtempSync(join(tmpdir(), "tessera-bundle-")), "tessera.cjs")
    await bundleCli({ outfile, sqlite: "package" })
    const text = readFileSync(outfile, "latin1")
    // The initialisers of the libraries' modules: esbuild keys each by the module's path.
    const libraryInits = new Set(
      [...text.matchAll(/^var (init_\w+) = __esm\(\{\n\s+"node_modules\/\.pnpm\/@(?:noble|scure)\+/gm)].map((m) => m[1]!)
    )
    expect(libraryInits.size).toBeGreaterThan(5)
    // Outside the libraries' own modules, a call of one of their initialisers is only in a loader.
    const regions = text.split(/^(?=\/\/ (?:node_modules|packages)\/)/m)
    const calls = regions
      .filter((r) => !/^\/\/ node_modules\/\.pnpm\/@(?:noble|scure)\+/.test(r))
      .flatMap((r) => r.split("\n"))
      .filter((line) => [...libraryInits].some((init) => line.includes(`${init}()`)))
    expect(calls.length).toBeGreaterThan(5)
    expect(calls.filter((line) => !/^__lazyLibrary\w* = \(\) => __lazyLibrary\w* \?\?= \(init_\w+\(\), __toCommonJS\(\w+\)\);$/.test(line.trim()))).toEqual([])
  }, 60_000)

  it("refuses what it cannot keep lazy or correct: a use at load, a namespace import, a local of the same name", () => {
    const lib = 'import { base58 } from "@scure/base"\n'
    expect(lazyLibraryImports(`${lib}export const f = (s: string) => base58.decode(s)\n`, "a.ts")).toContain("__lazyLibrary0().base58.decode(s)")
    expect(lazyLibraryImports(`${lib}export const g = () => ({ base58 })\n`, "a.ts")).toContain("{ base58: __lazyLibrary0().base58 }")
    expect(() => lazyLibraryImports(`${lib}export const codec = base58\n`, "a.ts")).toThrow(/used when the module loads/)
    expect(() => lazyLibraryImports('import * as b from "@scure/base"\nexport const f = () => b\n', "a.ts")).toThrow(/namespace import/)
    expect(() => lazyLibraryImports(`${lib}export const f = (base58: string) => base58\n`, "a.ts")).toThrow(/a local base58/)
    expect(() => lazyLibraryImports(`${lib}export { base58 }\n`, "a.ts")).toThrow(/re-export/)
  })
})
