import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bitcoinSigner, type ChainSigner, evmSigner, solanaSigner, sparkSigner, tronSigner } from "@tessera/core/testing"
import { startTestServer, type TestServer } from "../support/server.ts"
import { newCustomer, usd, V, wallet } from "./support.ts"

const electrumSpark = (): ChainSigner => {
  // A Spark wallet may answer with a Bitcoin message signature by its identity key (Electrum header).
  const spark = sparkSigner(new Uint8Array(32).fill(11))
  const btc = bitcoinSigner("P2WPKH", "electrum", new Uint8Array(32).fill(11))
  return { address: spark.address, sign: btc.sign }
}

const signers: ReadonlyArray<[string, () => ChainSigner, string?]> = [
  ["ETHEREUM_WALLET", () => evmSigner()],
  ["BASE_WALLET", () => evmSigner()],
  ["POLYGON_WALLET", () => evmSigner()],
  ["PLASMA_WALLET", () => evmSigner()],
  ["SOLANA_WALLET", () => solanaSigner()],
  ["TRON_WALLET", () => tronSigner()],
  ["SPARK_WALLET", () => sparkSigner()],
  ["SPARK_WALLET", electrumSpark, "electrum"]
]

describe("wallet ownership verification (virtual clock)", () => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer("memory", { clock: "virtual" })
  })
  afterAll(() => t.close())

  const create = async (type: string, address: string, route: "platform" | "customers" = "platform") => {
    const body = route === "customers" ? { ...wallet(type, address), customerId: await newCustomer(t) } : wallet(type, address)
    const r = await t.request("POST", `${V}/${route}/external-accounts`, { body })
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    expect(r.body.status).toBe("PENDING_OWNERSHIP_VERIFICATION")
    return r.body.id as string
  }

  it.each(signers)("%s: challenge → sign the exact messageToSign → 200 ACTIVE (%#)", async (type, signer, scheme) => {
    const s = signer()
    const id = await create(type, s.address)
    const ch = await t.request("POST", `${V}/platform/external-accounts/${id}/challenge`, { body: { method: "WALLET_SIGNATURE" } })
    expect(ch.status).toBe(201)
    expect(ch.body.messageToSign).toContain(id)
    expect(ch.body.messageToSign).toContain(s.address)
    const v = await t.request("POST", `${V}/platform/external-accounts/${id}/verify`, {
      body: { signature: s.sign(ch.body.messageToSign), ...(scheme ? { signatureScheme: scheme } : {}) }
    })
    expect(v.status, JSON.stringify(v.body)).toBe(200)
    expect(v.body.status).toBe("ACTIVE")
    // Verified: a further challenge does not apply.
    expect((await t.request("POST", `${V}/platform/external-accounts/${id}/challenge`, { body: { method: "WALLET_SIGNATURE" } })).status).toBe(409)
  })

  it("every status of the verify table, on the customers' route", async () => {
    const s = evmSigner()
    const id = await create("ETHEREUM_WALLET", s.address, "customers")
    const path = `${V}/customers/external-accounts/${id}`
    // 409: no challenge yet.
    expect((await t.request("POST", `${path}/verify`, { body: { signature: "0x00" } })).status).toBe(409)
    // 400 with an invalid signature → UNVERIFIED; then 409 again (the challenge is spent).
    const ch = await t.request("POST", `${path}/challenge`, { body: { method: "WALLET_SIGNATURE" } })
    const bad = await t.request("POST", `${path}/verify`, { body: { signature: evmSigner().sign(ch.body.messageToSign) } })
    expect(bad.status).toBe(400)
    expect(bad.body.details.reason).toBe("SIGNATURE_INVALID")
    expect((await t.request("GET", path)).body.status).toBe("UNVERIFIED")
    expect((await t.request("POST", `${path}/verify`, { body: { signature: s.sign(ch.body.messageToSign) } })).status).toBe(409)
    // A new challenge moves UNVERIFIED back to PENDING_OWNERSHIP_VERIFICATION; too late → 400 UNVERIFIED.
    const ch2 = await t.request("POST", `${path}/challenge`, { body: { method: "WALLET_SIGNATURE" } })
    expect((await t.request("GET", path)).body.status).toBe("PENDING_OWNERSHIP_VERIFICATION")
    await t.request("POST", `${V}/sandbox/clock/advance`, { body: { seconds: 600 } })
    const late = await t.request("POST", `${path}/verify`, { body: { signature: s.sign(ch2.body.messageToSign) } })
    expect(late.status).toBe(400)
    expect(late.body.details.reason).toBe("CHALLENGE_EXPIRED")
    // The old message does not verify a new challenge; the new one does.
    const ch3 = await t.request("POST", `${path}/challenge`, { body: { method: "WALLET_SIGNATURE" } })
    expect(ch3.body.messageToSign).not.toBe(ch2.body.messageToSign)
    expect((await t.request("POST", `${path}/verify`, { body: { signature: s.sign(ch3.body.messageToSign) } })).status).toBe(200)
    // 404 unknown; 401 without credentials.
    expect((await t.request("POST", `${V}/customers/external-accounts/ExternalAccount:00000000-0000-4000-8000-000000000000/verify`, { body: { signature: "x" } })).status).toBe(404)
    expect((await t.request("POST", `${path}/verify`, { body: { signature: "x" }, auth: null })).status).toBe(401)
    // Every status change was an EXTERNAL_ACCOUNT.STATUS_UPDATED event, in order.
    const events = await t.request("GET", `${V}/sandbox/events?resourceId=${encodeURIComponent(id)}`)
    expect(events.body.data.map((e: { data: { status: string } }) => e.data.status)).toEqual([
      "UNVERIFIED",
      "PENDING_OWNERSHIP_VERIFICATION",
      "UNVERIFIED",
      "PENDING_OWNERSHIP_VERIFICATION",
      "ACTIVE"
    ])
    expect(events.body.data[0]).toMatchObject({ type: "EXTERNAL_ACCOUNT.STATUS_UPDATED", data: { id } })
    expect(events.body.data[0].id).toMatch(/^Webhook:/)
  })

  it("a customer's wallet is verified through the platform's paths (the one verify path the spec names); platform GET and DELETE still see only the platform's own", async () => {
    const s = evmSigner()
    const id = await create("ETHEREUM_WALLET", s.address, "customers")
    const platformPath = `${V}/platform/external-accounts/${id}`
    const ch = await t.request("POST", `${platformPath}/challenge`, { body: { method: "WALLET_SIGNATURE" } })
    expect(ch.status, JSON.stringify(ch.body)).toBe(201)
    const v = await t.request("POST", `${platformPath}/verify`, { body: { signature: s.sign(ch.body.messageToSign) } })
    expect(v.status, JSON.stringify(v.body)).toBe(200)
    expect(v.body).toMatchObject({ id, status: "ACTIVE" })
    expect((await t.request("GET", `${V}/customers/external-accounts/${id}`)).body.status).toBe("ACTIVE")
    // The platform's reads and deletes are unchanged: a customer's account is 404 there, and stays.
    expect((await t.request("GET", platformPath)).status).toBe(404)
    expect((await t.request("DELETE", platformPath)).status).toBe(404)
    expect((await t.request("GET", `${V}/customers/external-accounts/${id}`)).status).toBe(200)
    // An id the platform does not have is 404 on the platform's ownership paths too.
    const unknown = `${V}/platform/external-accounts/ExternalAccount:00000000-0000-4000-8000-000000000000`
    expect((await t.request("POST", `${unknown}/challenge`, { body: { method: "WALLET_SIGNATURE" } })).status).toBe(404)
    expect((await t.request("POST", `${unknown}/verify`, { body: { signature: "x" } })).status).toBe(404)
  })

  it("malformed signatures of every encoding are a 400, never a 500", async () => {
    for (const [type, signer] of signers.slice(4, 7)) {
      for (const garbage of ["", "zz", "0x" + "00".repeat(65), "====", "A".repeat(300)]) {
        const id = await create(type, signer().address)
        await t.request("POST", `${V}/platform/external-accounts/${id}/challenge`, { body: { method: "WALLET_SIGNATURE" } })
        const r = await t.request("POST", `${V}/platform/external-accounts/${id}/verify`, { body: { signature: garbage } })
        expect(r.status).toBe(400)
      }
    }
  })

  it("409 where verification does not apply: bank accounts, Lightning, custodial and third-party wallets", async () => {
    const bank = (await t.request("POST", `${V}/platform/external-accounts`, { body: usd("9090901") })).body.id
    const ln = (await t.request("POST", `${V}/platform/external-accounts`, { body: { currency: "BTC", accountInfo: { accountType: "LIGHTNING", lightningAddress: "z@example.com" } } })).body.id
    const a = "0x" + "ef".repeat(20)
    const custodial = (await t.request("POST", `${V}/platform/external-accounts`, { body: wallet("ETHEREUM_WALLET", a, { accountInfo: { accountType: "ETHEREUM_WALLET", address: a, vaspName: "Kraken" } }) })).body.id
    const b = "0x" + "fe".repeat(20)
    const third = (
      await t.request("POST", `${V}/platform/external-accounts`, {
        body: wallet("ETHEREUM_WALLET", b, { ownershipType: "THIRD_PARTY", accountInfo: { accountType: "ETHEREUM_WALLET", address: b, beneficiary: { beneficiaryType: "BUSINESS", legalName: "Acme" } } })
      })
    ).body.id
    for (const id of [bank, ln, custodial, third]) {
      const r = await t.request("POST", `${V}/platform/external-accounts/${id}/challenge`, { body: { method: "WALLET_SIGNATURE" } })
      expect(r.status, id).toBe(409)
    }
  })

  it("LIVENESS: a verification link; the sandbox decides; verify is not the way (409)", async () => {
    const id = await create("SOLANA_WALLET", solanaSigner().address, "customers")
    const ch = await t.request("POST", `${V}/customers/external-accounts/${id}/challenge`, { body: { method: "LIVENESS" } })
    expect(ch.status).toBe(201)
    expect(ch.body.verificationLink).toMatch(/^https:\/\//)
    expect((await t.request("POST", `${V}/customers/external-accounts/${id}/verify`, { body: { signature: "x" } })).status).toBe(409)
    const decided = await t.request("POST", `${V}/sandbox/external-accounts/${id}/liveness`, { body: { outcome: "FAILED" } })
    expect(decided.body.status).toBe("UNVERIFIED")
    const again = await t.request("POST", `${V}/customers/external-accounts/${id}/challenge`, { body: { method: "LIVENESS" } })
    expect(again.status).toBe(201)
    expect((await t.request("POST", `${V}/sandbox/external-accounts/${id}/liveness`, { body: { outcome: "PASSED" } })).body.status).toBe("ACTIVE")
    expect((await t.request("POST", `${V}/sandbox/external-accounts/${id}/liveness`, { body: { outcome: "PASSED" } })).status).toBe(409)
  })
})
