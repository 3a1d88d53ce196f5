import { test } from "vitest"
import fc from "fast-check"
import { makeEngine, createCustomer, listCustomerInternalAccounts, listCredentials,
  challengeCredential, verifyCredential, isReply } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { newKeyPair, sealOtp, stamp } from "@tessera/core/testing"

const body = (v: unknown) => (isReply(v) ? (v.body as any) : (v as any))
const none = { signature: undefined, requestId: undefined }

test("any customer can open a wallet session", async () => {
  await fc.assert(fc.asyncProperty(fc.nat(), async (n) => {
    const engine = makeEngine({ store: MemoryStore.layer })
    const p = await engine.platform({ clientId: "t", clientSecret: "t" })
    const c = await engine.run(createCustomer(p, { customerType: "INDIVIDUAL", fullName: "T", email: `u${n}@example.com` }))
    const account = (await engine.run(listCustomerInternalAccounts(p, { customerId: c.id }))).data[0]!.id
    const cred = (await engine.run(listCredentials(p, { accountId: account }))).data[0]!.id
    const ch = body(await engine.run(challengeCredential(p, cred, undefined)))
    const tek = newKeyPair()
    const verify = { type: "EMAIL_OTP", encryptedOtpBundle: sealOtp(ch.otpEncryptionTargetBundle, "000000", tek) }
    const first = body(await engine.run(verifyCredential(p, cred, verify, none)))
    const session = body(await engine.run(verifyCredential(p, cred, verify,
      { signature: stamp(tek, first.payloadToSign), requestId: first.requestId })))
    // …your own logic under test, with a live wallet session…
    return session.id.startsWith("Session:")
  }), { numRuns: 25 })
})
