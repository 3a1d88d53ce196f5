import { createPublicKey, verify } from "node:crypto"
import { Effect } from "effect"
import {
  challengeCredential,
  createCustomer,
  listCredentials,
  listCustomerInternalAccounts
} from "@tessera/core/operations"
import { isReply, makeEngine, endpointPrograms } from "@tessera/core"
import {
  otpTargetBundle,
  openOtpBundle,
  parseSealedJson,
  signP256,
  utf8,
  verifyP256
} from "@tessera/core/crypto"
import { MemoryStore } from "@tessera/adapter-memory"
import { newKeyPair, sealOtp, stamp } from "@tessera/core/testing"

const seconds = () => Number(process.env["BENCH_SECONDS"] ?? 5)

const rate = async (ms: number, f: () => unknown | Promise<unknown>) => {
  let n = 0
  const end = performance.now() + ms
  const start = performance.now()
  while (performance.now() < end) {
    await f()
    n++
  }
  return Math.round(n / ((performance.now() - start) / 1000))
}

/** Raw P-256 verify (node:crypto, cached key, DER): the crypto bound of a signed retry. */
const rawVerifyRate = (ms: number) => {
  const k = newKeyPair()
  const payload = utf8(JSON.stringify({ type: "ACTIVITY_TYPE_X", parameters: { a: "b".repeat(200) } }))
  const sig = signP256(k.privateKey, payload)
  const key = createPublicKey({ key: Buffer.from("3059301306072a8648ce3d020106082a8648ce3d030107034200" + k.publicKeyUncompressed, "hex"), format: "der", type: "spki" })
  let n = 0
  const start = performance.now()
  while (performance.now() - start < ms) {
    verify("sha256", payload, { key, dsaEncoding: "der" }, sig)
    n++
  }
  return Math.round(n / ((performance.now() - start) / 1000))
}

/**
 * In-process OTP login (challenge, sealed code, 202, stamped retry, Session), client steps
 * included, against the same crypto calls made raw in sequence: the crypto-bound limit.
 */
const otpInProcess = async (ms: number) => {
  const engine = makeEngine({ store: MemoryStore.layer })
  const platform = await engine.platform({ clientId: "b", clientSecret: "s" })
  const run = async (e: Effect.Effect<unknown, unknown, any>) => {
    const v = await engine.run(e)
    return isReply(v) ? (v.body as any) : (v as any)
  }
  const ops = endpointPrograms(platform)
  const wallets: Array<string> = []
  let made = 0
  const nextCredential = async () => {
    // Each credential logs in once: the 30 s challenge rate limit never applies.
    const c = await engine.run(createCustomer(platform, { customerType: "INDIVIDUAL", fullName: "B", email: `b${made++}@example.com` }))
    const acct = (await engine.run(listCustomerInternalAccounts(platform, { customerId: c.id }))).data[0]!.id
    return (await engine.run(listCredentials(platform, { accountId: acct }))).data[0]!.id as string
  }
  for (let i = 0; i < 200; i++) wallets.push(await nextCredential())
  const flow = async (id: string) => {
    const ch = await run(challengeCredential(platform, id, undefined))
    const tek = newKeyPair()
    const body = { type: "EMAIL_OTP" as const, encryptedOtpBundle: sealOtp(ch.otpEncryptionTargetBundle, "000000", tek) }
    const first = await run(ops.walletAuth.verifyCredential(id, body))
    await run(ops.walletAuth.verifyCredential(id, body, { signature: stamp(tek, first.payloadToSign), requestId: first.requestId }))
  }
  let n = 0
  let spent = 0
  while (spent < ms) {
    const ids: Array<string> = []
    for (let i = 0; i < 50; i++) ids.push(await nextCredential())
    const t = performance.now()
    for (const id of ids) await flow(id)
    spent += performance.now() - t
    n += ids.length
  }
  await engine.dispose()
  const engineRate = Math.round(n / (spent / 1000))

  // The same cryptography, raw: target key, signed bundle, client seal, server open, token sign, stamp sign, stamp verify.
  const quorum = newKeyPair()
  const rawFlow = () => {
    const target = newKeyPair()
    const bundle = otpTargetBundle(target.publicKeyUncompressed, quorum)
    const tek = newKeyPair()
    const sealed = parseSealedJson(sealOtp(bundle, "000000", tek))
    if (!sealed.ok || openOtpBundle(target.privateKey, sealed) === undefined) throw new Error("raw open failed")
    const token = "h".repeat(40) + "." + "p".repeat(200)
    signP256(quorum.privateKey, utf8(token), "ieee-p1363")
    const s = signP256(tek.privateKey, utf8(token))
    if (!verifyP256(tek.publicKey, utf8(token), s)) throw new Error("raw verify failed")
  }
  const cryptoBound = await rate(ms, rawFlow)
  return { flowsPerSec: engineRate, cryptoBoundPerSec: cryptoBound, ratio: Math.round((engineRate / cryptoBound) * 1000) / 1000, target: 0.7 }
}

export const walletBench = async () => {
  const ms = seconds() * 1000
  return {
    rawP256VerifyPerSec: rawVerifyRate(Math.min(ms, 2000)),
    otpLoginInProcess: await otpInProcess(Math.min(ms, 3000))
  }
}
