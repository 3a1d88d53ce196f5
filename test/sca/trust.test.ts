import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { advance, CODE, euCustomer, ORIGIN, scaLogin, usCustomer, V } from "./support.ts"

describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("beneficiary trust with SCA sessions (%s store)", (kind) => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer(kind, { clock: "virtual" })
  })
  afterAll(() => t.close())

  let serial = 0
  const bankOf = async (customerId: string) => {
    const r = await t.request("POST", `${V}/customers/external-accounts`, {
      body: { customerId, currency: "USD", accountInfo: { accountType: "USD_ACCOUNT", accountNumber: `7100${String(++serial).padStart(4, "0")}`, routingNumber: "021000021", beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Jane Smith" } } }
    })
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    return r.body.id as string
  }
  const path = (id: string, step: string) => `${V}/customers/external-accounts/${id}/${step}`

  it("trust and untrust need a session; the challenge takes the sandbox code; wrong codes are counted and the fifth withdraws it", async () => {
    const c = await euCustomer(t)
    const bank = await bankOf(c)
    for (const step of ["trust", "untrust"]) expect((await t.request("POST", path(bank, step))).body.code).toBe("SCA_SESSION_REQUIRED")
    expect((await t.request("POST", path(bank, "trust/confirm"), { body: { code: CODE } })).body.code).toBe("SCA_SESSION_REQUIRED")
    await scaLogin(t, c)
    const noPending = await t.request("POST", path(bank, "trust/confirm"), { body: { code: CODE } })
    expect([noPending.status, noPending.body.details.reason]).toEqual([409, "NO_PENDING_CHALLENGE"])
    const start = await t.request("POST", path(bank, "trust"))
    expect(start.body.scaChallenge).toMatchObject({ factor: "SMS_OTP", availableFactors: ["SMS_OTP"], purpose: "TRUST_BENEFICIARY" })
    const passkey = await t.request("POST", path(bank, "trust/confirm"), { body: { passkeyAssertion: { id: "x" }, origin: ORIGIN } })
    expect([passkey.status, passkey.body.details.errors[0].field]).toEqual([400, "code"])
    for (let left = 4; left >= 1; left--) expect((await t.request("POST", path(bank, "trust/confirm"), { body: { code: "999999" } })).body.details.attemptsRemaining).toBe(left)
    const fifth = await t.request("POST", path(bank, "trust/confirm"), { body: { code: "999999" } })
    expect([fifth.status, fifth.body.details.reason]).toEqual([400, "SCA_CHALLENGE_WITHDRAWN"])
    expect((await t.request("POST", path(bank, "trust/confirm"), { body: { code: CODE } })).body.details.reason).toBe("SCA_CHALLENGE_WITHDRAWN")
    // A new start issues a new challenge.
    const again = await t.request("POST", path(bank, "trust"))
    expect(again.body.scaChallenge.id).not.toBe(start.body.scaChallenge.id)
    expect((await t.request("POST", path(bank, "trust/confirm"), { body: { code: CODE, challengeId: again.body.scaChallenge.id } })).body).toEqual({ trusted: true })
    const untrust = await t.request("POST", path(bank, "untrust"))
    expect(untrust.body.scaChallenge.purpose).toBe("UNTRUST_BENEFICIARY")
    expect((await t.request("POST", path(bank, "untrust/confirm"), { body: { code: CODE } })).body).toEqual({ trusted: false })
  })

  it("an expired challenge is 400; unknown accounts 404; customers outside SCA regions and platform accounts 409", async () => {
    const c = await euCustomer(t)
    const bank = await bankOf(c)
    await scaLogin(t, c)
    await t.request("POST", path(bank, "trust"))
    await advance(t, 5 * 60)
    const late = await t.request("POST", path(bank, "trust/confirm"), { body: { code: CODE } })
    expect([late.status, late.body.details.reason]).toEqual([400, "SCA_CHALLENGE_EXPIRED"])
    const missing = await t.request("POST", path("ExternalAccount:00000000-0000-4000-8000-000000000000", "trust"))
    expect([missing.status, missing.body.code]).toEqual([404, "REFERENCE_NOT_FOUND"])
    const us = await bankOf(await usCustomer(t))
    const notSca = await t.request("POST", path(us, "trust"))
    expect([notSca.status, notSca.body.code, notSca.body.details.reason]).toEqual([409, "CONFLICT", "SCA_NOT_REQUIRED"])
  })
})
