import { test } from "vitest"
import fc from "fast-check"
import { makeEngine, isReply } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { newKeyPair, sealOtp, stamp } from "@tessera/core/testing"

const body = (v: unknown) => (isReply(v) ? (v.body as any) : (v as any))

test("any customer can open a wallet session", async () => {
  await fc.assert(fc.asyncProperty(fc.nat(), async (n) => {
    const engine = makeEngine({ store: MemoryStore.layer })
    const p = await engine.platform({ clientId: "t", clientSecret: "t" })
    const api = engine.as(p)
    const c = await api.customers.create({ customerType: "INDIVIDUAL", fullName: "T", email: `u${n}@example.com` })
    const account = (await api.internalAccounts.list({ customerId: c.id })).data[0]!.id
    const cred = (await api.walletAuth.listCredentials({ accountId: account })).data[0]!.id
    const ch = body(await api.walletAuth.challengeCredential(cred))
    const tek = newKeyPair()
    const verify = { type: "EMAIL_OTP" as const, encryptedOtpBundle: sealOtp(ch.otpEncryptionTargetBundle, "000000", tek) }
    const first = body(await api.walletAuth.verifyCredential(cred, verify))
    const session = body(await api.walletAuth.verifyCredential(cred, verify,
      { signature: stamp(tek, first.payloadToSign), requestId: first.requestId }))
    // …your own logic under test, with a live wallet session…
    return session.id.startsWith("Session:")
  }), { numRuns: 25 })
})
