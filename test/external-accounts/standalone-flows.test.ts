import { spawn, type ChildProcess } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { bitcoinSigner, type ChainSigner, evmSigner, solanaSigner, sparkSigner, tronSigner, verifyWebhookSignature } from "@tessera/core/testing"
import { repoRoot } from "../support/paths.ts"
import { startReceiver } from "../webhooks/receiver.ts"

const start = (file: string, webhookUrl: string) =>
  new Promise<{ child: ChildProcess; url: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [join(repoRoot, "packages/cli/bin/tessera.mjs"), "serve"], {
      env: { ...process.env, PORT: "0", TESSERA_DB: file, TESSERA_CLOCK: "virtual", TESSERA_LOG: "off", TESSERA_WEBHOOK_URL: webhookUrl },
      stdio: ["ignore", "pipe", "inherit"]
    })
    let out = ""
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString()
      const m = /listening on (\S+)/.exec(out)
      if (m) resolve({ child, url: m[1]! })
    })
    child.on("exit", (code) => reject(new Error(`server exited ${code}`)))
  })

const stop = (child: ChildProcess) => new Promise<void>((r) => (child.once("exit", () => r()), child.kill("SIGTERM")))

/** A Spark wallet answering with a Bitcoin message signature (BIP-137 or Electrum header) by its identity key. */
const sparkBitcoin = (scheme: "bip137" | "electrum"): ChainSigner => {
  const seed = new Uint8Array(32).map((_, i) => (i * 7 + (scheme === "bip137" ? 1 : 2)) & 0xff)
  return { address: sparkSigner(seed).address, sign: bitcoinSigner("P2WPKH", scheme, seed).sign }
}

describe("ownership verification and webhooks over the standalone server (tessera serve)", () => {
  it("EVM, Spark (bip137, electrum), Solana, Tron: verify, fail, recover; every status change reaches the receiver, across a restart", async () => {
    const receiver = await startReceiver()
    const file = join(mkdtempSync(join(tmpdir(), "tessera-e2e-")), "e2e.sqlite")
    let server = await start(file, receiver.url)
    const auth = `Basic ${Buffer.from("sandbox-client-id:sandbox-client-secret").toString("base64")}`
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(server.url + path, { method, headers: { authorization: auth, "content-type": "application/json" }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
      return { status: res.status, body: await res.json() }
    }
    const wallets: ReadonlyArray<[string, ChainSigner, ("bip137" | "electrum")?]> = [
      ["ETHEREUM_WALLET", evmSigner()],
      ["SPARK_WALLET", sparkBitcoin("bip137"), "bip137"],
      ["SPARK_WALLET", sparkBitcoin("electrum"), "electrum"],
      ["SOLANA_WALLET", solanaSigner()],
      ["TRON_WALLET", tronSigner()]
    ]
    const ids: Array<string> = []
    try {
      for (const [type, signer, scheme] of wallets) {
        const acct = await call("POST", "/platform/external-accounts", { currency: type === "SPARK_WALLET" ? "BTC" : "USDC", ownershipType: "FIRST_PARTY", accountInfo: { accountType: type, address: signer.address } })
        expect(acct.body.status).toBe("PENDING_OWNERSHIP_VERIFICATION")
        const id = acct.body.id as string
        ids.push(id)
        const path = `/platform/external-accounts/${id}`
        const extra = scheme === undefined ? {} : { signatureScheme: scheme }
        // A wrong signature: 400 and UNVERIFIED.
        const ch1 = await call("POST", `${path}/challenge`, { method: "WALLET_SIGNATURE" })
        const wrong = await call("POST", `${path}/verify`, { signature: signer.sign(ch1.body.messageToSign + "!"), ...extra })
        expect([wrong.status, (await call("GET", path)).body.status]).toEqual([400, "UNVERIFIED"])
        // A late one: 400 and UNVERIFIED again.
        const ch2 = await call("POST", `${path}/challenge`, { method: "WALLET_SIGNATURE" })
        await call("POST", "/sandbox/clock/advance", { seconds: 601 })
        const late = await call("POST", `${path}/verify`, { signature: signer.sign(ch2.body.messageToSign), ...extra })
        expect([late.status, late.body.details.reason]).toEqual([400, "CHALLENGE_EXPIRED"])
        // Recovery with a new challenge.
        const ch3 = await call("POST", `${path}/challenge`, { method: "WALLET_SIGNATURE" })
        const ok = await call("POST", `${path}/verify`, { signature: signer.sign(ch3.body.messageToSign), ...extra })
        expect([ok.status, ok.body.status], `${type} ${scheme ?? ""}`).toEqual([200, "ACTIVE"])
      }
      // Restart on the same file; one more status change afterwards.
      await stop(server.child)
      server = await start(file, receiver.url)
      const late = evmSigner()
      const acct = await call("POST", "/platform/external-accounts", { currency: "USDC", ownershipType: "FIRST_PARTY", accountInfo: { accountType: "BASE_WALLET", address: late.address } })
      ids.push(acct.body.id)
      const ch = await call("POST", `/platform/external-accounts/${acct.body.id}/challenge`, { method: "WALLET_SIGNATURE" })
      await call("POST", `/platform/external-accounts/${acct.body.id}/verify`, { signature: late.sign(ch.body.messageToSign) })
      const expected = wallets.length * 5 + 1
      const deadline = Date.now() + 15_000
      while (receiver.received.filter((r) => r.answered === 200).length < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
      const key = (await call("GET", "/sandbox/webhooks/public-key")).body.publicKeyPem as string
      const got = receiver.received.filter((r) => r.answered === 200)
      expect(got).toHaveLength(expected)
      expect(new Set(got.map((r) => r.event.id)).size).toBe(expected)
      for (const r of got) expect(verifyWebhookSignature(key, r.body, r.signature)).toBe(true)
      for (const id of ids.slice(0, wallets.length))
        expect(got.filter((r) => r.event.data.id === id).map((r) => r.event.data.status)).toEqual([
          "UNVERIFIED",
          "PENDING_OWNERSHIP_VERIFICATION",
          "UNVERIFIED",
          "PENDING_OWNERSHIP_VERIFICATION",
          "ACTIVE"
        ])
      expect(got.filter((r) => r.event.data.id === ids.at(-1)).map((r) => r.event.data.status)).toEqual(["ACTIVE"])
    } finally {
      await stop(server.child)
      await receiver.close()
    }
  }, 90_000)
})
