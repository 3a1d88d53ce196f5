import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { HDKey } from "@scure/bip32"
import { mnemonicToEntropy, mnemonicToSeedSync, validateMnemonic } from "@scure/bip39"
import { wordlist as english } from "@scure/bip39/wordlists/english.js"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { keccak_256 } from "@noble/hashes/sha3.js"
import { decryptExport, EVM_ACCOUNT_PATH, mnemonicSigner, newKeyPair } from "@tessera/core/testing"
import { startTestServer, type TestServer } from "../support/server.ts"
import { loginWithOtp, newWallet, signed, V } from "../support/wallet.ts"

/** One export of the wallet over HTTP (202, then the signed retry), opened with a fresh client key. */
const exportMnemonic = async (t: TestServer, accountId: string, key: Awaited<ReturnType<typeof loginWithOtp>>["key"]) => {
  const client = newKeyPair()
  const { final } = await signed(t, "POST", `${V}/internal-accounts/${accountId}/export`, key, { clientPublicKey: client.publicKeyUncompressed })
  expect(final.status).toBe(200)
  return decryptExport(final.body.encryptedWalletCredentials, client.privateKey)
}

describe("export seals the wallet's BIP-39 mnemonic", () => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer("memory")
  })
  afterAll(() => t.close())

  it("24 English words with a valid checksum, the same at every export, different per wallet", async () => {
    const a = await newWallet(t)
    const { key } = await loginWithOtp(t, a.emailCredentialId)
    const words = await exportMnemonic(t, a.accountId, key)
    expect(validateMnemonic(words, english)).toBe(true)
    expect(words.split(" ")).toHaveLength(24)
    expect(words).toBe(words.trim())
    expect(mnemonicToEntropy(words, english)).toHaveLength(32)
    expect(await exportMnemonic(t, a.accountId, key)).toBe(words)

    const b = await newWallet(t)
    const other = await exportMnemonic(t, b.accountId, (await loginWithOtp(t, b.emailCredentialId)).key)
    expect(validateMnemonic(other, english)).toBe(true)
    expect(other).not.toBe(words)
  })

  it("the toolkit imports the exported words as a wallet does: BIP-32 at m/44'/60'/0'/0/0 over the BIP-39 seed", async () => {
    const w = await newWallet(t)
    const words = await exportMnemonic(t, w.accountId, (await loginWithOtp(t, w.emailCredentialId)).key)
    const signer = mnemonicSigner(words)
    // An independent derivation: BIP-32 public key at the path, then the Ethereum address rule.
    const pub = HDKey.fromMasterSeed(mnemonicToSeedSync(words)).derive(EVM_ACCOUNT_PATH).publicKey!
    const account = keccak_256(secp256k1.Point.fromBytes(pub).toBytes(false).subarray(1)).subarray(12)
    expect(signer.address.toLowerCase()).toBe(`0x${Buffer.from(account).toString("hex")}`)
    expect(mnemonicSigner(words, "m/44'/60'/0'/0/1").address).not.toBe(signer.address)
  })
})

describe("mnemonicSigner (client toolkit)", () => {
  it("derives the well-known first Ethereum account of the all-`abandon` test mnemonic", () => {
    const words = `${"abandon ".repeat(11)}about`
    expect(mnemonicSigner(words).address).toBe("0x9858EfFD232B4033E47d90003D41EC34EcaEda94")
  })

  it("refuses words whose checksum fails", () => {
    expect(() => mnemonicSigner("abandon ".repeat(12).trim())).toThrow(/BIP-39/)
  })
})

describe("the mnemonic survives a restart (the server key is in the store)", () => {
  it("a second server on the same SQLite file exports the same words", async () => {
    const filename = join(mkdtempSync(join(tmpdir(), "tessera-mnemonic-")), "t.sqlite")
    const first = await startTestServer("sqlite", { filename })
    const w = await newWallet(first)
    const { key } = await loginWithOtp(first, w.emailCredentialId)
    const words = await exportMnemonic(first, w.accountId, key)
    await first.close()
    const second = await startTestServer("sqlite", { filename })
    try {
      expect(await exportMnemonic(second, w.accountId, key)).toBe(words)
    } finally {
      await second.close()
    }
  })
})
