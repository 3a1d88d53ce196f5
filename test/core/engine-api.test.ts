import { describe, expect, it } from "vitest"
import { Effect } from "effect"
import { Customers, Engine, type Reply, makeEngine, Store } from "@tessera/core"
import { createCustomer } from "@tessera/core/operations"
import { MemoryStore } from "@tessera/adapter-memory"
import { evmSigner, newKeyPair, sealOtp, stamp } from "@tessera/core/testing"

// The embedding API (`engine.as(platform)`): the same operations as over HTTP, as Promises.
describe("Engine.as(platform) for embedders", () => {
  it("logs in with email OTP and proves a wallet's ownership without HTTP", async () => {
    const engine = makeEngine({ store: MemoryStore.layer })
    try {
      const platform = await engine.platform({ clientId: "embed", clientSecret: "s" })
      const api = engine.as(platform)
      const customer = await api.customers.create({ customerType: "INDIVIDUAL", fullName: "Em Bed", email: "embed@example.com" })
      const account = (await api.internalAccounts.list({ customerId: customer.id })).data[0]!.id
      const credential = (await api.walletAuth.listCredentials({ accountId: account })).data[0]!
      const ch = (await api.walletAuth.challengeCredential(credential.id)) as { otpEncryptionTargetBundle: string }
      const tek = newKeyPair()
      const body = { type: "EMAIL_OTP" as const, encryptedOtpBundle: sealOtp(ch.otpEncryptionTargetBundle, "000000", tek) }
      const first = (await api.walletAuth.verifyCredential(credential.id, body)) as Reply
      expect(first.status).toBe(202)
      const challenge = first.body as { payloadToSign: string; requestId: string }
      const session = (await api.walletAuth.verifyCredential(credential.id, body, { signature: stamp(tek, challenge.payloadToSign), requestId: challenge.requestId })) as Reply
      expect(session.status).toBe(200)
      expect((await api.walletAuth.listSessions({ accountId: account })).data).toHaveLength(1)

      const s = evmSigner()
      const created = (await api.externalAccounts.create({ customerId: customer.id, currency: "USDC", ownershipType: "FIRST_PARTY", accountInfo: { accountType: "ETHEREUM_WALLET", address: s.address } })) as Reply
      const id = (created.body as { id: string }).id
      const wc = (await api.externalAccounts.challenge(id, { method: "WALLET_SIGNATURE" })) as Reply
      const verified = await api.externalAccounts.verify(id, { signature: s.sign((wc.body as { messageToSign: string }).messageToSign) })
      expect((verified as { status: string }).status).toBe("ACTIVE")
      expect((await api.webhooks.listEvents()).data.map((e) => (e.data as { status: string }).status)).toEqual(["ACTIVE"])
    } finally {
      await engine.dispose()
    }
  })
})

// The engine runs its programs on a runtime derived from the built one (DECISIONS #531): the
// same services whichever way it was made, and none once it is disposed.
describe("the engine's runtime", () => {
  const count = Effect.flatMap(Store, (store) => store.list(Customers, "p", { limit: 10 })).pipe(Effect.map((page) => page.items.length))

  it("an engine made with `new` builds its layers at its first run and keeps what that run wrote", async () => {
    const engine = new Engine({ store: MemoryStore.layer })
    const platform = await engine.platform({ clientId: "lazy", clientSecret: "s" })
    engine.runSync(createCustomer(platform, { customerType: "INDIVIDUAL", fullName: "First Run" }))
    expect((await engine.as(platform).customers.list({})).data.map((c) => c.fullName)).toEqual(["First Run"])
    await engine.dispose()
  })

  it("after dispose, runs fail instead of using the closed store", async () => {
    const engine = makeEngine({ store: MemoryStore.layer })
    expect(engine.runSync(count)).toBe(0)
    await engine.dispose()
    expect(() => engine.runSync(count)).toThrow(/disposed/)
    await expect(engine.run(count)).rejects.toThrow(/disposed/)
  })

  it("after `engine.runtime.dispose()`, runs fail too", async () => {
    const engine = makeEngine({ store: MemoryStore.layer })
    expect(engine.runSync(count)).toBe(0)
    await engine.runtime.dispose()
    expect(() => engine.runSync(count)).toThrow(/disposed/)
  })
})
