import { describe, expect, it } from "vitest"
import { Engine, isReply, OTP_MAX_ATTEMPTS } from "@tessera/core"
import { AsyncMemoryStore, MemoryStore } from "@tessera/adapter-memory"
import { newKeyPair, sealOtp } from "@tessera/core/testing"

/**
 * On an asynchronous store, requests interleave at every store call: what an operation read
 * before its transaction may be stale by the time it writes. These races must resolve as they
 * would one after the other.
 */
describe.each([
  ["memory", () => MemoryStore.layer],
  ["async-memory", () => AsyncMemoryStore.layer]
] as const)("races on the %s store", (_name, store) => {
  it("concurrent wrong OTP codes each count: the issuance is withdrawn at the limit with 429", async () => {
    const engine = await Engine.make({ store: store() })
    const platform = await engine.platform({ clientId: "c", clientSecret: "s" })
    const api = engine.as(platform)
    const customer = await api.customers.create({ customerType: "INDIVIDUAL", email: "race@example.com" })
    const accounts = await api.internalAccounts.list({ customerId: customer.id })
    const credential = (await api.walletAuth.listCredentials({ accountId: accounts.data[0]!.id })).data[0]!
    const challenge = await api.walletAuth.challengeCredential(credential.id, {})
    const bundle = (challenge as { otpEncryptionTargetBundle: string }).otpEncryptionTargetBundle
    const wrong = () => ({ type: "EMAIL_OTP" as const, encryptedOtpBundle: sealOtp(bundle, "999999", newKeyPair()) })
    const results = await Promise.allSettled(Array.from({ length: 12 }, () => api.walletAuth.verifyCredential(credential.id, wrong())))
    const reasons = results.map((r) => (r.status === "rejected" ? (r.reason as { details: { reason?: string } }).details.reason ?? "" : "ok"))
    const codes = results.map((r) => (r.status === "rejected" ? (r.reason as { status: number }).status : 200))
    // Exactly OTP_MAX_ATTEMPTS wrong codes were judged against the issuance; the last of them withdrew it.
    expect(codes.filter((c) => c === 429)).toHaveLength(1)
    expect(reasons.filter((r) => r === "Invalid OTP code" || r === "OTP_ATTEMPTS_EXHAUSTED")).toHaveLength(OTP_MAX_ATTEMPTS)
    expect(codes.every((c) => c === 401 || c === 429)).toBe(true)
    await engine.dispose()
  })

  it("a PATCH racing a DELETE never brings the customer back", async () => {
    const engine = await Engine.make({ store: store() })
    const platform = await engine.platform({ clientId: "c", clientSecret: "s" })
    const api = engine.as(platform)
    for (let i = 0; i < 5; i++) {
      const c = await api.customers.create({ customerType: "INDIVIDUAL", fullName: `Race ${i}`, platformCustomerId: `race-${i}` })
      await Promise.allSettled([api.customers.update(c.id, { customerType: "INDIVIDUAL", fullName: "Changed" }), api.customers.delete(c.id)])
      const after = await api.customers.get(c.id)
      expect(isReply(after) ? after.body : after).toMatchObject({ isDeleted: true })
    }
    await engine.dispose()
  })
})
