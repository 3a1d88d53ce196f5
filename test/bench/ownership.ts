import { createPublicKey, verify } from "node:crypto"
import bs58 from "bs58"
import { secp256k1 } from "@noble/curves/secp256k1.js"
import { sha256 } from "@noble/hashes/sha2.js"
import { keccak_256 } from "@noble/hashes/sha3.js"
import { createExternalAccount, startOwnershipChallenge, verifyOwnership } from "@tessera/core/operations"
import { isReply, makeEngine, type PlatformRecord } from "@tessera/core"
import { sparkIdentityKey, utf8 } from "@tessera/core/crypto"
import { MemoryStore } from "@tessera/adapter-memory"
import { type ChainSigner, evmSigner, solanaSigner, sparkSigner, tronSigner } from "@tessera/core/testing"
import { buildCli, startTessera } from "./servers.ts"
import { jsonClient } from "./http-client.ts"

const seconds = () => Number(process.env["BENCH_SECONDS"] ?? 5)

/** The raw library call each scheme comes down to, on one prepared (message, signature). */
const rawVerifiers: Record<string, (s: ChainSigner, message: string, sig: string) => () => boolean> = {
  ETHEREUM_WALLET: (_s, m, sig) => {
    const b = Buffer.from(sig.slice(2), "hex")
    const rec = Uint8Array.of(b[64]! - 27, ...b.subarray(0, 64))
    const msg = utf8(m)
    return () => secp256k1.recoverPublicKey(rec, keccak_256(Buffer.concat([utf8(`\u0019Ethereum Signed Message:\n${msg.length}`), msg])), { prehash: false }).length === 33
  },
  TRON_WALLET: (_s, m, sig) => {
    const b = Buffer.from(sig, "hex")
    const rec = Uint8Array.of(b[64]! - 27, ...b.subarray(0, 64))
    const msg = utf8(m)
    return () => secp256k1.recoverPublicKey(rec, keccak_256(Buffer.concat([utf8(`\u0019TRON Signed Message:\n${msg.length}`), msg])), { prehash: false }).length === 33
  },
  // What any verifier of a fresh address pays: the base58 signature decoded, the key imported once.
  SOLANA_WALLET: (s, m, sig) => {
    const x = Buffer.from(bs58.decode(s.address)).toString("base64url")
    return () => verify(null, utf8(m), createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x }, format: "jwk" }), bs58.decode(sig))
  },
  SPARK_WALLET: (s, m, sig) => {
    const pub = sparkIdentityKey(s.address)!
    const raw = Buffer.from(sig, "hex")
    return () => secp256k1.verify(raw, sha256(utf8(m)), pub, { prehash: false, format: "der", lowS: false })
  }
}

const signerFor: Record<string, () => ChainSigner> = {
  ETHEREUM_WALLET: () => evmSigner(),
  TRON_WALLET: () => tronSigner(),
  SOLANA_WALLET: () => solanaSigner(),
  SPARK_WALLET: () => sparkSigner()
}

const rate = (ms: number, f: () => unknown) => {
  let n = 0
  const start = performance.now()
  while (performance.now() - start < ms) {
    f()
    n++
  }
  return Math.round(n / ((performance.now() - start) / 1000))
}

/** In-process: verifyOwnership on accounts with an outstanding challenge and a ready signature. */
const inProcess = async (type: string, ms: number) => {
  const engine = makeEngine({ store: MemoryStore.layer })
  const platform: PlatformRecord = await engine.platform({ clientId: "b", clientSecret: "s" })
  const prepare = async (n: number) => {
    const out: Array<{ id: string; signature: string }> = []
    for (let i = 0; i < n; i++) {
      const s = signerFor[type]!()
      const acct: any = await engine.run(createExternalAccount(platform, { currency: "USDC", ownershipType: "FIRST_PARTY", accountInfo: { accountType: type, address: s.address } }, "platform"))
      const ch: any = await engine.run(startOwnershipChallenge(platform, acct.body.id, { method: "WALLET_SIGNATURE" }))
      out.push({ id: acct.body.id, signature: s.sign(ch.body.messageToSign) })
    }
    return out
  }
  let n = 0
  let spent = 0
  while (spent < ms) {
    const batch = await prepare(100)
    const t = performance.now()
    for (const b of batch) {
      const r = engine.runSync(verifyOwnership(platform, b.id, { signature: b.signature }))
      if (isReply(r) || (r as { status: string }).status !== "ACTIVE") throw new Error("bench verify failed")
    }
    spent += performance.now() - t
    n += batch.length
  }
  await engine.dispose()
  const s = signerFor[type]!()
  const message = "I verify that I control this wallet.\nAccount: ExternalAccount:x\nNonce: y"
  const raw = rate(Math.min(ms, 1500), rawVerifiers[type]!(s, message, s.sign(message)))
  const engineRate = Math.round(n / (spent / 1000))
  return { inProcessPerSec: engineRate, rawLibraryPerSec: raw, ratio: Math.round((engineRate / raw) * 1000) / 1000 }
}

/** Over HTTP against the standalone-style target: prepared accounts, 8 clients posting verify. */
const overHttp = async (type: string, ms: number, port: number) => {
  const { call, close } = jsonClient(port, 8)
  try {
    const prepared: Array<{ id: string; signature: string }> = []
    const prepStart = performance.now()
    while (prepared.length < 3000 && performance.now() - prepStart < ms) {
      const s = signerFor[type]!()
      const acct = await call("POST", "/platform/external-accounts", { currency: "USDC", ownershipType: "FIRST_PARTY", accountInfo: { accountType: type, address: s.address } })
      const ch = await call("POST", `/platform/external-accounts/${acct.body.id}/challenge`, { method: "WALLET_SIGNATURE" })
      prepared.push({ id: acct.body.id, signature: s.sign(ch.body.messageToSign) })
    }
    let i = 0
    let ok = 0
    const start = performance.now()
    const worker = async () => {
      for (let k = i++; k < prepared.length; k = i++) {
        const r = await call("POST", `/platform/external-accounts/${prepared[k]!.id}/verify`, { signature: prepared[k]!.signature })
        if (r.status === 200) ok++
      }
    }
    await Promise.all(Array.from({ length: 8 }, worker))
    return { httpPerSec: Math.round(ok / ((performance.now() - start) / 1000)), verified: ok, of: prepared.length }
  } finally {
    close()
  }
}

export const ownershipBench = async () => {
  const ms = seconds() * 1000
  await buildCli()
  const out: Record<string, unknown> = {}
  // One server for the four schemes (each scheme's accounts are its own).
  const t = await startTessera("memory")
  try {
    for (const type of ["ETHEREUM_WALLET", "TRON_WALLET", "SOLANA_WALLET", "SPARK_WALLET"])
      out[type] = { ...(await inProcess(type, Math.min(ms, 2000))), ...(await overHttp(type, Math.min(ms, 2000), t.port)) }
  } finally {
    await t.stop()
  }
  return { perScheme: out, target: { inProcessVsRaw: 0.7 }, note: "in-process: verifyOwnership (load, decode, verify, status change, outbox event) on the memory store vs the bare library call on the same signature" }
}
