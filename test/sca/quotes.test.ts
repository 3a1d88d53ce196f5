import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SoftwarePasskey } from "@tessera/core/testing"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { accountNumber } from "../quotes/support.ts"
import { loginWithOtp, retry } from "../support/wallet.ts"
import { advance, CODE, euCustomer, ORIGIN, q, RP_ID, scaLogin, V } from "./support.ts"

describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("SCA quote authorization over HTTP (%s store)", (kind) => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer(kind, { clock: "virtual" })
  })
  afterAll(() => t.close())

  /**
   * An EU customer with its embedded wallet (funded) and a USD bank account of its own (outcome
   * suffix 010: success). A pull from the bank into the wallet is the customer's transfer that
   * executes without a wallet signature.
   */
  const euSender = async () => {
    const c = await euCustomer(t, { email: `eu${Math.random().toString(36).slice(2)}@example.com` })
    const internal = (await t.request("GET", `${V}/customers/internal-accounts?customerId=${encodeURIComponent(c)}`)).body.data[0]
    await t.request("POST", `${V}/sandbox/internal-accounts/${internal.id}/fund`, { body: { amount: 100_000_000 } })
    const bank = await t.request("POST", `${V}/customers/external-accounts`, {
      body: { customerId: c, currency: "USD", accountInfo: { accountType: "USD_ACCOUNT", accountNumber: accountNumber("010"), routingNumber: "021000021", beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Jane Smith" } } }
    })
    expect(bank.status, JSON.stringify(bank.body)).toBe(201)
    return { c, internal: internal.id as string, bank: bank.body.id as string }
  }
  /** A pull of $50 from the customer's bank into its wallet. */
  const pull = async (x: { internal: string; bank: string }, over: Record<string, unknown> = {}) => {
    const r = await send(x.bank, x.internal, over)
    expect(r.status, JSON.stringify(r.body)).toBe(201)
    return r
  }
  const createQuote = (body: Record<string, unknown>) => t.request("POST", `${V}/quotes`, { body })
  const send = (source: string, destination: string, over: Record<string, unknown> = {}) =>
    createQuote({ source: { sourceType: "ACCOUNT", accountId: source }, destination: { destinationType: "ACCOUNT", accountId: destination }, lockedCurrencySide: "SENDING", lockedCurrencyAmount: 5_000, ...over })
  const authorize = (id: string, body: Record<string, unknown>) => t.request("POST", `${V}/quotes/${id}/authorize`, { body })
  const resend = (id: string) => t.request("POST", `${V}/quotes/${id}/authorize/resend`)

  it("execute holds an SCA customer's transfer in PENDING_AUTHORIZATION; authorize with 123456 releases it", async () => {
    const x = await euSender()
    const { c } = x
    const quote = await pull(x)
    expect(quote.body.status).toBe("PENDING")
    const held = await t.request("POST", `${V}/quotes/${quote.body.id}/execute`)
    expect(held.status).toBe(200)
    expect(held.body).toMatchObject({ status: "PENDING_AUTHORIZATION", scaChallenge: { factor: "SMS_OTP", availableFactors: ["SMS_OTP"], id: expect.stringMatching(/^ScaChallenge:/) } })
    // Nothing moved yet, and executing again is 409.
    expect((await t.request("GET", `${V}/transactions/${quote.body.transactionId}`)).status).toBe(404)
    const twice = await t.request("POST", `${V}/quotes/${quote.body.id}/execute`)
    expect([twice.status, twice.body.details.reason]).toEqual([409, "QUOTE_PENDING_AUTHORIZATION"])
    // Authorizing needs the customer's SCA session.
    const noSession = await authorize(quote.body.id, { code: CODE })
    expect([noSession.status, noSession.body.code]).toEqual([409, "SCA_SESSION_REQUIRED"])
    await scaLogin(t, c)
    const wrong = await authorize(quote.body.id, { code: "000000" })
    expect([wrong.status, wrong.body.details.reason, wrong.body.details.attemptsRemaining]).toEqual([400, "SCA_PROOF_INVALID", 4])
    const ok = await authorize(quote.body.id, { code: CODE, endUserIpAddress: "203.0.113.42" })
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    expect(["PROCESSING", "COMPLETED"]).toContain(ok.body.status)
    expect(ok.body.scaChallenge).toBeUndefined()
    expect((await t.request("GET", `${V}/transactions/${quote.body.transactionId}`)).body).toMatchObject({ type: "INCOMING", quoteId: quote.body.id })
    const after = await authorize(quote.body.id, { code: CODE })
    expect([after.status, after.body.code, after.body.details.reason]).toEqual([409, "CONFLICT", "NO_PENDING_CHALLENGE"])
    // immediatelyExecute is held the same way: the quote is created (201) awaiting authorization.
    const immediate = await pull(x, { immediatelyExecute: true })
    expect(immediate.body).toMatchObject({ status: "PENDING_AUTHORIZATION", scaChallenge: { factor: "SMS_OTP" } })
    expect((await authorize(immediate.body.id, { code: CODE })).body.status).not.toBe("PENDING_AUTHORIZATION")
  })

  it("a real-time funded quote is created 202 PENDING_AUTHORIZATION without instructions; authorized, it shows them and /sandbox/send pays it", async () => {
    const { c, internal } = await euSender()
    const body = { source: { sourceType: "REALTIME_FUNDING", currency: "USD", customerId: c }, destination: { destinationType: "ACCOUNT", accountId: internal }, lockedCurrencySide: "SENDING", lockedCurrencyAmount: 5_000 }
    const created = await createQuote(body)
    expect(created.status).toBe(202)
    expect(created.body.status).toBe("PENDING_AUTHORIZATION")
    expect(created.body.paymentInstructions).toBeUndefined()
    expect(created.body.scaChallenge.factor).toBe("SMS_OTP")
    const early = await t.request("POST", `${V}/sandbox/send`, { body: { quoteId: created.body.id, currencyCode: "USD" } })
    expect([early.status, early.body.details.reason]).toEqual([400, "QUOTE_PENDING_AUTHORIZATION"])
    expect((await t.request("GET", `${V}/quotes/${created.body.id}`)).body.scaChallenge.id).toBe(created.body.scaChallenge.id)
    await scaLogin(t, c)
    const ok = await authorize(created.body.id, { code: CODE })
    expect(ok.status).toBe(200)
    expect(ok.body.status).toBe("PENDING")
    expect(ok.body.paymentInstructions[0].accountOrWalletInfo.accountType).toBe("USD_ACCOUNT")
    const paid = await t.request("POST", `${V}/sandbox/send`, { body: { quoteId: created.body.id, currencyCode: "USD" } })
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    // TOTP cannot authorize a transfer.
    const totp = await createQuote({ ...body, scaFactor: "TOTP" })
    expect([totp.status, totp.body.details.errors[0].field]).toEqual([400, "scaFactor"])
  })

  it("resend keeps the challenge and its expiry, 429 within 30 s; once the quote expired there is nothing to authorize (409)", async () => {
    const x = await euSender()
    const { c } = x
    const quote = await pull(x)
    const held = (await t.request("POST", `${V}/quotes/${quote.body.id}/execute`)).body
    const soon = await resend(quote.body.id)
    expect([soon.status, soon.body.code]).toEqual([429, "RATE_LIMITED"])
    await advance(t, 31)
    expect((await resend(quote.body.id)).status).toBe(204)
    const again = (await t.request("GET", `${V}/quotes/${quote.body.id}`)).body.scaChallenge
    expect(again).toEqual(held.scaChallenge)
    // The quote (and its challenge with it) expires: nothing is left to authorize or re-send.
    await scaLogin(t, c)
    await advance(t, 5 * 60)
    expect((await authorize(quote.body.id, { code: CODE })).body.details.reason).toBe("NO_PENDING_CHALLENGE")
    expect((await resend(quote.body.id)).status).toBe(409)
  })

  it("a session that expired before the authorization is 409 SCA_SESSION_REQUIRED; a new login makes it pass", async () => {
    const x = await euSender()
    await scaLogin(t, x.c)
    await advance(t, 15 * 60)
    const quote = await pull(x)
    await t.request("POST", `${V}/quotes/${quote.body.id}/execute`)
    const stale = await authorize(quote.body.id, { code: CODE })
    expect([stale.status, stale.body.code]).toEqual([409, "SCA_SESSION_REQUIRED"])
    await scaLogin(t, x.c)
    expect((await authorize(quote.body.id, { code: CODE })).status).toBe(200)
  })

  it("five wrong codes withdraw the challenge (429); a locked login is 423; bad proofs are 400; unknown quotes 404; the platform's quotes 409", async () => {
    const x = await euSender()
    const { c, bank } = x
    await scaLogin(t, c)
    const quote = await pull(x)
    await t.request("POST", `${V}/quotes/${quote.body.id}/execute`)
    expect((await authorize(quote.body.id, {})).body.details.errors[0].field).toBe("code")
    expect((await authorize(quote.body.id, { passkeyAssertion: {} })).body.details.errors[0].field).toBe("origin")
    for (let i = 0; i < 4; i++) expect((await authorize(quote.body.id, { code: "111111" })).status).toBe(400)
    const fifth = await authorize(quote.body.id, { code: "111111" })
    expect([fifth.status, fifth.body.code, fifth.body.details.reason]).toEqual([429, "RATE_LIMITED", "SCA_CHALLENGE_WITHDRAWN"])
    expect((await authorize(quote.body.id, { code: CODE })).status).toBe(400)

    const second = await pull(x)
    await t.request("POST", `${V}/quotes/${second.body.id}/execute`)
    for (let i = 0; i < 5; i++) await t.request("POST", `${V}/sca/record-event${q(c)}`, { body: { eventType: "FAILED_LOGIN_ATTEMPT" } })
    const locked = await authorize(second.body.id, { code: CODE })
    expect([locked.status, locked.body.code]).toEqual([423, "ACCOUNT_LOCKED"])

    const nobody = await authorize("Quote:00000000-0000-4000-8000-000000000000", { code: CODE })
    expect([nobody.status, nobody.body.code]).toEqual([404, "QUOTE_NOT_FOUND"])
    expect((await resend("Quote:00000000-0000-4000-8000-000000000000")).status).toBe(404)
    const platformUsd = (await t.request("GET", `${V}/platform/internal-accounts`)).body.data[0].id
    const platformQuote = await send(platformUsd, bank)
    const notSca = await authorize(platformQuote.body.id, { code: CODE })
    expect([notSca.status, notSca.body.details.reason]).toEqual([409, "SCA_NOT_REQUIRED"])
    expect((await resend(platformQuote.body.id)).body.details.reason).toBe("SCA_NOT_REQUIRED")
  })

  it("a passkey challenge (scaFactor PASSKEY) is authorized with a real assertion and cannot be re-sent", async () => {
    const x = await euSender()
    const { c } = x
    await scaLogin(t, c)
    const start = await t.request("POST", `${V}/sca/factors${q(c)}`, { body: { type: "PASSKEY" } })
    const passkey = new SoftwarePasskey({ origin: ORIGIN, rpId: RP_ID })
    expect((await t.request("POST", `${V}/sca/factors/confirm${q(c)}`, { body: { type: "PASSKEY", origin: ORIGIN, credential: passkey.register(start.body.options.challenge) } })).status).toBe(200)
    const quote = await pull(x)
    const held = await t.request("POST", `${V}/quotes/${quote.body.id}/execute`, { body: { scaFactor: "PASSKEY" } })
    expect(held.body.scaChallenge).toMatchObject({ factor: "PASSKEY", availableFactors: ["SMS_OTP", "PASSKEY"], passkeyAssertionOptions: { rpId: RP_ID } })
    expect((await resend(quote.body.id)).body.details.reason).toBe("NOT_AN_SMS_CHALLENGE")
    expect((await authorize(quote.body.id, { code: CODE })).status).toBe(400)
    const signed = Buffer.from(held.body.scaChallenge.passkeyAssertionOptions.challenge, "base64url").toString("utf8")
    const ok = await authorize(quote.body.id, { passkeyAssertion: passkey.assert(signed), origin: ORIGIN })
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    expect(ok.body.status).not.toBe("PENDING_AUTHORIZATION")
    const totp = await t.request("POST", `${V}/quotes/${(await pull(x)).body.id}/execute`, { body: { scaFactor: "TOTP" } })
    expect([totp.status, totp.body.details.errors[0].field]).toEqual([400, "scaFactor"])
  })

  it("from the embedded wallet: the signed execution is held for SCA; to a trusted beneficiary it completes with no challenge", async () => {
    const x = await euSender()
    const { c, internal, bank } = x
    await scaLogin(t, c)
    const credential = (await t.request("GET", `${V}/auth/credentials?accountId=${encodeURIComponent(internal)}`)).body.data[0].id
    const { key } = await loginWithOtp(t, credential)
    const executeSigned = async (quoteId: string) => {
      const path = `${V}/quotes/${quoteId}/execute`
      const challenge = await t.request("POST", path)
      expect(challenge.status, JSON.stringify(challenge.body)).toBe(202)
      return retry(t, "POST", path, challenge, key)
    }
    const first = await send(internal, bank, { lockedCurrencyAmount: 10_000_000 })
    expect(first.status, JSON.stringify(first.body)).toBe(201)
    const held = await executeSigned(first.body.id)
    expect([held.status, held.body.status]).toEqual([200, "PENDING_AUTHORIZATION"])
    expect((await authorize(first.body.id, { code: CODE })).body.status).toBe("COMPLETED")

    // Trust the bank account: later sends to it skip the per-transaction challenge.
    const trust = await t.request("POST", `${V}/customers/external-accounts/${bank}/trust`)
    expect((await t.request("POST", `${V}/customers/external-accounts/${bank}/trust/confirm`, { body: { code: CODE, challengeId: trust.body.scaChallenge.id } })).body).toEqual({ trusted: true })
    const second = await send(internal, bank, { lockedCurrencyAmount: 10_000_000 })
    const done = await executeSigned(second.body.id)
    expect([done.status, done.body.status]).toEqual([200, "COMPLETED"])
  })
})
