import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { stamp } from "@tessera/core/testing"
import { loginWithOtp, newWallet, retry } from "../support/wallet.ts"
import { accountNumber, accountQuote, advance, balances, execute, fund, platformBankAccount, quote, transaction, V, webhooksAbout } from "./support.ts"

const SENDER = "$success.usd@sandbox.uma.money"

describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("embedded-wallet quotes and UMA receive (%s store)", (kind) => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer(kind, { clock: "virtual" })
  })
  afterAll(async () => t.close())

  it("a quote from an embedded wallet executes as a signed retry: 202, then the stamped retry", async () => {
    const w = await newWallet(t)
    await fund(t, w.accountId, 50_000_000)
    const dest = await platformBankAccount(t, "010")
    const immediate = await quote(t, { ...accountQuote(w.accountId, dest, 10_000_000), immediatelyExecute: true })
    expect([immediate.status, immediate.body.details?.errors?.[0]?.field]).toEqual([400, "immediatelyExecute"])
    const q = await quote(t, accountQuote(w.accountId, dest, 10_000_000))
    expect(q.status, JSON.stringify(q.body)).toBe(201)
    const path = `${V}/quotes/${q.body.id}/execute`
    const challenge = await execute(t, q.body.id)
    expect(challenge.status, JSON.stringify(challenge.body)).toBe(202)
    expect(JSON.parse(challenge.body.payloadToSign)).toMatchObject({ type: "ACTIVITY_TYPE_SIGN_TRANSACTION", parameters: { quoteId: q.body.id, walletId: w.accountId } })
    // Nothing moved on the challenge.
    expect((await balances(t, w.accountId)).available).toBe(50_000_000)
    const unsigned = await t.request("POST", path, { headers: { "request-id": challenge.body.requestId } })
    expect([unsigned.status, unsigned.body.code]).toEqual([401, "WALLET_SIGNATURE_MISSING"])
    const { key } = await loginWithOtp(t, w.emailCredentialId)
    const done = await retry(t, "POST", path, challenge, key)
    expect(done.status, JSON.stringify(done.body)).toBe(200)
    expect(done.body).toMatchObject({ id: q.body.id, status: "COMPLETED" })
    expect((await balances(t, w.accountId)).available).toBe(50_000_000 - 10_000_000)
    expect((await transaction(t, q.body.transactionId)).status).toBe("COMPLETED")
    // The request id is spent, and the quote executed: a fresh call is 409, not a new challenge.
    const again = await execute(t, q.body.id)
    expect([again.status, again.body.code]).toEqual([409, "CONFLICT"])
  })

  it("a PROCESSING hold answers 200 PROCESSING until it lapses; the re-sent retry then executes once", async () => {
    const w = await newWallet(t)
    await fund(t, w.accountId, 20_000_000)
    const dest = await platformBankAccount(t, "010")
    const q = await quote(t, accountQuote(w.accountId, dest, 5_000_000))
    const path = `${V}/quotes/${q.body.id}/execute`
    const { key } = await loginWithOtp(t, w.emailCredentialId)
    const hold = await t.request("POST", `${V}/sandbox/internal-accounts/${w.accountId}/processing`, { body: { operations: 1, seconds: 10 } })
    expect(hold.status).toBe(200)
    const challenge = await execute(t, q.body.id)
    // The re-send must be byte-identical: one stamp (ECDSA signatures differ on every signing).
    const signature = stamp(key.privateKey, challenge.body.payloadToSign)
    const held = await retry(t, "POST", path, challenge, signature)
    expect([held.status, held.body.status]).toEqual([200, "PROCESSING"])
    expect((await balances(t, w.accountId)).available).toBe(20_000_000)
    await advance(t, 10)
    const settled = await retry(t, "POST", path, challenge, signature)
    expect(settled.status, JSON.stringify(settled.body)).toBe(200)
    expect(settled.body).toMatchObject({ id: q.body.id, status: "COMPLETED" })
    // The request id is spent: one more re-send is refused, and the money moved once.
    expect((await retry(t, "POST", path, challenge, signature)).status).toBe(401)
    expect((await balances(t, w.accountId)).available).toBe(15_000_000)
  })

  it("UMA receive into the customer's primary internal account: INCOMING, pending credit, INCOMING_PAYMENT webhooks", async () => {
    const w = await newWallet(t)
    const before = await balances(t, w.accountId)
    const r = await t.request("POST", `${V}/sandbox/uma/receive`, { body: { senderUmaAddress: SENDER, customerId: w.customerId, receivingCurrencyCode: "USD", receivingCurrencyAmount: 1_000 } })
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.body).toMatchObject({ type: "INCOMING", direction: "CREDIT", customerId: w.customerId, destination: { accountId: w.accountId }, receivedAmount: { amount: 1_000 } })
    const hooks = await webhooksAbout(t, r.body.id)
    expect(hooks[0]!.type).toBe("INCOMING_PAYMENT.PENDING")
    const after = await balances(t, w.accountId)
    expect(after.total).toBeGreaterThan(before.total)
    if (r.body.status === "PENDING") {
      expect(after.available).toBe(before.available)
      const approved = await t.request("POST", `${V}/transactions/${r.body.id}/approve`)
      expect(approved.status, JSON.stringify(approved.body)).toBe(200)
    }
    expect((await transaction(t, r.body.id)).status).toBe("COMPLETED")
    expect((await webhooksAbout(t, r.body.id)).map((h) => h.type).at(-1)).toBe("INCOMING_PAYMENT.COMPLETED")
    expect(await balances(t, w.accountId)).toEqual({ available: after.total, total: after.total })
  })

  it("UMA receive by the customer's UMA address goes to its default UMA deposit account when one is set", async () => {
    const w = await newWallet(t)
    const c = await t.request("GET", `${V}/customers/${w.customerId}`)
    const ext = await t.request("POST", `${V}/customers/external-accounts`, {
      body: {
        customerId: w.customerId,
        currency: "USD",
        defaultUmaDepositAccount: true,
        accountInfo: { accountType: "USD_ACCOUNT", accountNumber: accountNumber("010"), routingNumber: "021000021", beneficiary: { beneficiaryType: "INDIVIDUAL", fullName: "Jane Smith" } }
      }
    })
    expect(ext.status, JSON.stringify(ext.body)).toBe(201)
    const before = await balances(t, w.accountId)
    const r = await t.request("POST", `${V}/sandbox/uma/receive`, { body: { senderUmaAddress: SENDER, receiverUmaAddress: c.body.umaAddress, receivingCurrencyCode: "USD", receivingCurrencyAmount: 2_500 } })
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.body.destination).toMatchObject({ accountId: ext.body.id })
    expect(await balances(t, w.accountId)).toEqual(before)
  })

  it("a compliance-failing UMA sender: INCOMING FAILED, the pending credit withdrawn", async () => {
    const w = await newWallet(t)
    const before = await balances(t, w.accountId)
    const r = await t.request("POST", `${V}/sandbox/uma/receive`, { body: { senderUmaAddress: "$fail.compliance.usd@sandbox.uma.money", customerId: w.customerId, receivingCurrencyCode: "USD", receivingCurrencyAmount: 700 } })
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.body).toMatchObject({ type: "INCOMING", status: "FAILED", failureReason: "COMPLIANCE_REJECTED" })
    expect((await webhooksAbout(t, r.body.id)).map((h) => h.type)).toEqual(["INCOMING_PAYMENT.PENDING", "INCOMING_PAYMENT.FAILED"])
    expect(await balances(t, w.accountId)).toEqual(before)
  })

  it("UMA receive refuses a bad request and changes nothing", async () => {
    const w = await newWallet(t)
    const before = await balances(t, w.accountId)
    const both = await t.request("POST", `${V}/sandbox/uma/receive`, { body: { senderUmaAddress: SENDER, customerId: w.customerId, receiverUmaAddress: "$x@example.com", receivingCurrencyCode: "USD", receivingCurrencyAmount: 1 } })
    expect([both.status, both.body.code]).toEqual([400, "INVALID_INPUT"])
    const neither = await t.request("POST", `${V}/sandbox/uma/receive`, { body: { senderUmaAddress: SENDER, receivingCurrencyCode: "USD", receivingCurrencyAmount: 0 } })
    expect(neither.body.details.errors.map((e: any) => e.field).sort()).toEqual(["receiverUmaAddress", "receivingCurrencyAmount"])
    const nobody = await t.request("POST", `${V}/sandbox/uma/receive`, { body: { senderUmaAddress: SENDER, customerId: "Customer:00000000-0000-4000-8000-000000000000", receivingCurrencyCode: "USD", receivingCurrencyAmount: 1 } })
    expect([nobody.status, nobody.body.code]).toEqual([404, "USER_NOT_FOUND"])
    const unknownUma = await t.request("POST", `${V}/sandbox/uma/receive`, { body: { senderUmaAddress: SENDER, receiverUmaAddress: "$nobody.here@example.com", receivingCurrencyCode: "USD", receivingCurrencyAmount: 1 } })
    expect([unknownUma.status, unknownUma.body.code]).toEqual([404, "USER_NOT_FOUND"])
    const unknownSender = await t.request("POST", `${V}/sandbox/uma/receive`, { body: { senderUmaAddress: "$who@sandbox.uma.money", customerId: w.customerId, receivingCurrencyCode: "USD", receivingCurrencyAmount: 1 } })
    expect([unknownSender.status, unknownSender.body.code]).toEqual([404, "UMA_NOT_FOUND"])
    expect(await balances(t, w.accountId)).toEqual(before)
  })
})
