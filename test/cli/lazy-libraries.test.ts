// The CLI bundle loads the signature and address libraries (@noble/*, @scure/*) at their first use
// instead of at every start (scripts/bundle-cli.mjs, DECISIONS #475), from a file beside the
// bundle that holds them with the other libraries no start runs (#517). What they compute must
// not change, no start may load them, and a source the rewrite cannot keep lazy and correct fails
// the build instead of shipping.
import { existsSync, mkdtempSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { basename, join } from "node:path"
import { describe, expect, it } from "vitest"
import * as published from "@tessera/core/crypto"
import { bitcoinSigner, evmSigner, solanaSigner, sparkSigner, tronSigner } from "@tessera/core/testing"
import { bundleCli, lazyLibraryImports, withLazyLibraryImports } from "../../scripts/bundle-cli.mjs"
import { bundleProbe } from "./bundle-probe.ts"
import { startCli } from "./run-cli.ts"

type Probe = typeof published

const bundledProbe = async (): Promise<Probe> => {
  const outfile = await bundleProbe("crypto-probe.ts", [withLazyLibraryImports], { sideLibraries: true })
  const text = readFileSync(outfile, "utf8")
  // The probe's own checks that the rewrite happened (the core's modules reach the libraries
  // through loaders) and that the libraries are in the file beside it, not in it.
  expect(text).toMatch(/__lazyLibrary\d+\(\)\.ed25519\.Point/)
  expect(text).toMatch(/require\("\.\/tessera-libs-[0-9a-f]{16}\.cjs"\)\("node_modules\/\.pnpm\/@noble\+curves@/)
  expect(text).not.toMatch(/^\/\/ node_modules\/\.pnpm\/@noble/m)
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

  it("the CLI bundle holds none of the libraries no start runs; it asks the file beside it for each, from a loader or a module's initialiser", async () => {
    const outfile = join(mkdtempSync(join(tmpdir(), "tessera-bundle-")), "tessera.cjs")
    const { sideFile } = await bundleCli({ outfile, sqlite: "package" })
    expect(sideFile).toBeDefined()
    expect(basename(sideFile!)).toMatch(/^tessera-libs-[0-9a-f]{16}\.cjs$/)
    expect(existsSync(sideFile!)).toBe(true)
    const text = readFileSync(outfile, "latin1")
    const side = readFileSync(sideFile!, "latin1")
    // esbuild heads each module's code with a comment naming its path.
    const LIBRARY = /^\/\/ node_modules\/\.pnpm\/(?:@noble\+|@scure\+|cbor2@|pg@)/m
    expect(text).not.toMatch(LIBRARY)
    for (const lib of ["@noble+curves", "@noble+hashes", "@scure+base", "cbor2@", "pg@"]) expect(side).toContain(`// node_modules/.pnpm/${lib}`)
    // Each reference is one module of one line, and names a module the file has.
    const asked = [...text.matchAll(/require\("\.\/(tessera-libs-[0-9a-f]+\.cjs)"\)\("([^"]+)"\)/g)]
    expect(asked.length).toBeGreaterThan(5)
    expect(new Set(asked.map((m) => m[1]))).toEqual(new Set([basename(sideFile!)]))
    expect(text.split("tessera-libs-").length - 1).toBe(asked.length)
    for (const [, , path] of asked) expect(side).toContain(`${JSON.stringify(path)}: () =>`)
    // The file evaluates a library only when asked for it: what it exports is a lookup, and a
    // module it is asked for is the library's own (its exports as published).
    const lookup = createRequire(import.meta.url)(sideFile!) as (path: string) => Record<string, unknown>
    expect(typeof lookup).toBe("function")
    const ed25519 = asked.find((m) => m[2]!.endsWith("@noble/curves/ed25519.js"))![2]!
    expect(typeof (lookup(ed25519)["ed25519"] as { verify: unknown }).verify).toBe("function")
    // Its libraries' modules are evaluated only by the lookup's entries.
    const inits = [...side.matchAll(/^var (init_\w+) = __esm\(/gm)].map((m) => m[1]!)
    expect(inits.length).toBeGreaterThan(5)
    const topLevelCalls = side.split("\n").filter((line) => /^\S/.test(line) && inits.some((init) => line.includes(`${init}()`)))
    expect(topLevelCalls).toEqual([])
  }, 60_000)

  it("the server run from the bundle checks a wallet's signature through the file beside it", async () => {
    const cli = await startCli(["serve", "--port", "0", "--db", ":memory:", "--client-id", "libs"], { TESSERA_CLIENT_SECRET: "libs-secret" })
    try {
      const base = `${/listening on (\S+)/.exec(cli.banner)![1]!}/platform/external-accounts`
      const headers = { authorization: `Basic ${btoa("libs:libs-secret")}`, "content-type": "application/json" }
      const post = async (url: string, body: unknown) => {
        const r = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) })
        return { status: r.status, body: (await r.json()) as { id: string; status: string; messageToSign: string; code: string } }
      }
      const signer = evmSigner(seed(9))
      const account = await post(base, { currency: "USDC", ownershipType: "FIRST_PARTY", accountInfo: { accountType: "ETHEREUM_WALLET", address: signer.address } })
      expect(account.status).toBe(201)
      const challenge = async () => {
        const r = await post(`${base}/${account.body.id}/challenge`, { method: "WALLET_SIGNATURE" })
        expect(r.status).toBe(201)
        return r.body.messageToSign
      }
      // Another key's signature is refused (and spends the challenge); the wallet's own, on a new
      // challenge, is accepted and the account is verified.
      const refused = await post(`${base}/${account.body.id}/verify`, { signature: evmSigner(seed(10)).sign(await challenge()) })
      expect([refused.status, (refused.body as unknown as { details: { reason: string } }).details.reason]).toEqual([400, "SIGNATURE_INVALID"])
      const verified = await post(`${base}/${account.body.id}/verify`, { signature: signer.sign(await challenge()) })
      expect([verified.status, verified.body.status]).toEqual([200, "ACTIVE"])
    } finally {
      await cli.stop()
    }
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

  it("loads node:crypto the same way, and leaves node's other modules as they are (DECISIONS #521)", () => {
    const crypto = lazyLibraryImports('import { randomFillSync } from "node:crypto"\nexport const f = (b: Uint8Array) => randomFillSync(b)\n', "a.ts")
    expect(crypto).toContain('require("node:crypto")')
    expect(crypto).toContain("__lazyLibrary0().randomFillSync(b)")
    expect(() => lazyLibraryImports('import { createHash } from "node:crypto"\nexport const h = createHash("sha256")\n', "a.ts")).toThrow(/used when the module loads/)
    const fs = 'import { readFileSync } from "node:fs"\nexport const f = () => readFileSync("x")\n'
    expect(lazyLibraryImports(fs, "a.ts")).toBe(fs)
  })
})
