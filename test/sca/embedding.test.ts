import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Engine, isReply, type PlatformRecord } from "@tessera/core"
import { everyStore } from "../support/stores.ts"

const body = (v: unknown): any => (isReply(v) ? v.body : v)

describe.each(everyStore("sca-embed"))("SCA through the embedding API (%s store)", (_kind, layer) => {
  let engine: Engine
  let platform: PlatformRecord
  beforeAll(async () => {
    engine = await Engine.make({ store: layer(), clock: "virtual" })
    platform = await engine.platform({ clientId: "sca-embed", clientSecret: "sca-embed-secret-0123" })
  })
  afterAll(() => engine.dispose())

  it("logs a customer in, enrolls TOTP, trusts a beneficiary and records events; errors reject with the tagged error", async () => {
    const api = engine.as(platform)
    const customer = body(await api.customers.create({ customerType: "INDIVIDUAL", fullName: "Eva Weber", nationality: "DE" } as never))
    const query = { customerId: customer.id as string }
    await expect(api.sca.startEnrollment({ type: "TOTP" }, query)).rejects.toMatchObject({ _tag: "SCA_SESSION_REQUIRED", status: 409 })
    const login = await api.sca.startLogin({ factor: "SMS_OTP" }, query)
    expect(login).toMatchObject({ factor: "SMS_OTP", challengeId: expect.stringMatching(/^ScaChallenge:/) })
    const session = await api.sca.completeLogin({ factor: "SMS_OTP", challengeId: (login as { challengeId: string }).challengeId, code: "123456", endUserIpAddress: "203.0.113.7" }, query)
    expect(session).toMatchObject({ status: "SUCCESS", sessionExpiresAt: expect.any(String) })
    const start = (await api.sca.startEnrollment({ type: "TOTP" }, query)) as { secret: string }
    expect(await api.sca.confirmEnrollment({ type: "TOTP", secret: start.secret, code: "123456" }, query)).toMatchObject({ type: "TOTP" })
    expect(await api.sca.listFactors(query)).toEqual({ factors: [{ factor: "SMS_OTP", name: "Verified phone" }, { factor: "TOTP", name: "Authenticator app" }] })

    const account = body(
      await api.externalAccounts.create({
        customerId: customer.id,
        currency: "USD",
        accountInfo: { accountType: "USD_ACCOUNT", accountNumber: "55500012", routingNumber: "021000021", beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Eva Weber" } }
      } as never)
    )
    const trust = body(await api.externalAccounts.trust(account.id)) as { scaChallenge: { id: string } }
    expect(await api.externalAccounts.confirmTrust(account.id, { code: "123456", challengeId: trust.scaChallenge.id })).toEqual({ trusted: true })

    expect(await api.sca.recordEvent({ eventType: "FAILED_LOGIN_ATTEMPT" }, query)).toMatchObject({ failedAttempts: 1, suspended: false, lockedUntil: null })
    const reset = body(await api.sca.startReset({ factor: "TOTP" }, query)) as { resetId: string }
    expect(await api.sca.getReset(reset.resetId, query)).toMatchObject({ status: "INITIATED", factor: "TOTP" })
    await expect(api.sca.completeReset(reset.resetId, undefined, query)).rejects.toMatchObject({ _tag: "INVALID_INPUT", details: { reason: "RESET_NOT_READY" } })
    await expect(api.quotes.authorize("Quote:00000000-0000-4000-8000-000000000000", { code: "123456" })).rejects.toMatchObject({ _tag: "QUOTE_NOT_FOUND" })
  })
})
