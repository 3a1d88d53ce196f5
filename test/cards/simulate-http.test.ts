import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestServer, type StoreKind, type TestServer } from "../support/server.ts"
import { advance, authorize, balances, cardholder, getTransaction, issue, merchant, patchCard, simulate, V, webhooksAbout } from "./support.ts"

describe.each<StoreKind>(["memory", "sqlite", "async-memory"])("sandbox card simulators over HTTP (%s store)", (kind) => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer(kind, { clock: "virtual" })
  })
  afterAll(async () => t.close())

  /** A funded cardholder with an ACTIVE card. */
  const funded = async (amount = 10_000, over: Record<string, unknown> = {}) => {
    const h = await cardholder(t, amount)
    return { ...h, card: await issue(t, h, over) }
  }
  const types = async (id: string) => (await webhooksAbout(t, id)).map((e) => e.type)

  describe("authorization, clearing, return: the ledger", () => {
    it("an authorization holds the amount: available drops, the total stays; the transaction is AUTHORIZED and listed", async () => {
      const f = await funded()
      const r = await simulate(t, f.card.id, "authorization", { amount: 1250, currency: { code: "USDB" }, merchant: merchant() })
      expect(r.status).toBe(202)
      expect(r.body.issuerTransactionToken).toMatch(/^sandbox_txn_[0-9a-f]{32}$/)
      const id = r.body.cardTransactionId
      expect(await balances(t, f.customerId)).toEqual({ available: 8750, total: 10_000 })
      const tx = await getTransaction(t, id)
      expect(tx).toMatchObject({
        type: "CARD",
        id,
        cardId: f.card.id,
        customerId: f.customerId,
        status: "AUTHORIZED",
        direction: "DEBIT",
        merchant: merchant(),
        authorizedAmount: { amount: 1250, currency: { code: "USDB" } },
        accountId: f.accountId,
        pullSummary: { count: 1, totalAmount: 1250, pendingCount: 0 },
        settlementSummary: { count: 0, totalAmount: 0 },
        refundSummary: { count: 0, totalAmount: 0 }
      })
      expect(tx.issuerTransactionToken).toBe(r.body.issuerTransactionToken)
      expect(tx.settledAmount).toBeUndefined()
      const listed = await t.request("GET", `${V}/transactions?type=CARD&customerId=${encodeURIComponent(f.customerId)}`)
      expect(listed.body.data).toEqual([tx])
      expect((await t.request("GET", `${V}/transactions?accountIdentifier=${encodeURIComponent(f.accountId)}&status=AUTHORIZED`)).body.data).toEqual([tx])
      expect(await types(id)).toEqual(["CARD_TRANSACTION.AUTHORIZED"])
    })

    it("a clearing of the authorized amount settles it: the money leaves, SETTLED", async () => {
      const f = await funded()
      const id = await authorize(t, f.card.id, 1000)
      expect((await simulate(t, f.card.id, "clearing", { cardTransactionId: id, amount: 1000 })).status).toBe(202)
      expect(await balances(t, f.customerId)).toEqual({ available: 9000, total: 9000 })
      expect(await getTransaction(t, id)).toMatchObject({ status: "SETTLED", settledAmount: { amount: 1000 }, settlementSummary: { count: 1, totalAmount: 1000 } })
      expect(await types(id)).toEqual(["CARD_TRANSACTION.AUTHORIZED", "CARD_TRANSACTION.SETTLED"])
    })

    it("partial clearings are PARTIALLY_SETTLED; a clearing of 0 expires the rest of the authorization", async () => {
      const f = await funded()
      const id = await authorize(t, f.card.id, 3000)
      await simulate(t, f.card.id, "clearing", { cardTransactionId: id, amount: 1000 })
      expect((await getTransaction(t, id)).status).toBe("PARTIALLY_SETTLED")
      expect(await balances(t, f.customerId)).toEqual({ available: 7000, total: 9000 })
      await simulate(t, f.card.id, "clearing", { cardTransactionId: id, amount: 0 })
      expect(await getTransaction(t, id)).toMatchObject({ status: "SETTLED", settledAmount: { amount: 1000 }, settlementSummary: { count: 1, totalAmount: 1000 } })
      expect(await balances(t, f.customerId)).toEqual({ available: 9000, total: 9000 })
      // A closed transaction takes no more clearings.
      const again = await simulate(t, f.card.id, "clearing", { cardTransactionId: id, amount: 10 })
      expect([again.status, again.body.code, again.body.details.errors[0].field]).toEqual([400, "INVALID_INPUT", "cardTransactionId"])
    })

    it("a clearing above the authorization pulls the excess after the fact; if the source cannot cover it, EXCEPTION", async () => {
      const f = await funded(2000)
      const id = await authorize(t, f.card.id, 1000)
      await simulate(t, f.card.id, "clearing", { cardTransactionId: id, amount: 1200 })
      expect(await getTransaction(t, id)).toMatchObject({ status: "SETTLED", pullSummary: { count: 2, totalAmount: 1200 }, settledAmount: { amount: 1200 } })
      expect(await balances(t, f.customerId)).toEqual({ available: 800, total: 800 })
      const short = await authorize(t, f.card.id, 500)
      await simulate(t, f.card.id, "clearing", { cardTransactionId: short, amount: 2000 })
      expect(await getTransaction(t, short)).toMatchObject({ status: "EXCEPTION", pullSummary: { count: 1, totalAmount: 500 } })
      // Never below zero: only the hold left; the 300 still available stays.
      expect(await balances(t, f.customerId)).toEqual({ available: 300, total: 300 })
      expect((await types(short)).at(-1)).toBe("CARD_TRANSACTION.EXCEPTION")
    })

    it("a partial return credits the source and keeps SETTLED; the rest makes it REFUNDED; more than was settled is 400", async () => {
      const f = await funded()
      const id = await authorize(t, f.card.id, 1500)
      await simulate(t, f.card.id, "clearing", { cardTransactionId: id, amount: 1500 })
      await simulate(t, f.card.id, "return", { cardTransactionId: id, amount: 500 })
      expect(await getTransaction(t, id)).toMatchObject({ status: "SETTLED", refundedAmount: { amount: 500 }, refundSummary: { count: 1, totalAmount: 500 } })
      expect(await balances(t, f.customerId)).toEqual({ available: 9000, total: 9000 })
      const over = await simulate(t, f.card.id, "return", { cardTransactionId: id, amount: 1001 })
      expect([over.status, over.body.details.errors[0].field]).toEqual([400, "amount"])
      await simulate(t, f.card.id, "return", { cardTransactionId: id, amount: 1000 })
      expect(await getTransaction(t, id)).toMatchObject({ status: "REFUNDED", refundedAmount: { amount: 1500 }, refundSummary: { count: 2, totalAmount: 1500 } })
      expect(await balances(t, f.customerId)).toEqual({ available: 10_000, total: 10_000 })
      expect(await types(id)).toEqual(["CARD_TRANSACTION.AUTHORIZED", "CARD_TRANSACTION.SETTLED", "CARD_TRANSACTION.SETTLED", "CARD_TRANSACTION.REFUNDED"])
      // An authorization not yet cleared has nothing to return.
      const open = await authorize(t, f.card.id, 100)
      expect((await simulate(t, f.card.id, "return", { cardTransactionId: open, amount: 100 })).status).toBe(400)
    })

    it("a return reversal takes the refund back (SETTLED); if the source no longer holds it, EXCEPTION", async () => {
      const f = await funded(1000)
      const id = await authorize(t, f.card.id, 1000)
      await simulate(t, f.card.id, "clearing", { cardTransactionId: id, amount: 1000 })
      await simulate(t, f.card.id, "return", { cardTransactionId: id, amount: 1000 })
      expect(await balances(t, f.customerId)).toEqual({ available: 1000, total: 1000 })
      expect((await simulate(t, f.card.id, "return_reversal", { cardTransactionId: id })).status).toBe(202)
      expect(await getTransaction(t, id)).toMatchObject({ status: "SETTLED", refundedAmount: { amount: 0 } })
      expect(await balances(t, f.customerId)).toEqual({ available: 0, total: 0 })
      const notRefunded = await simulate(t, f.card.id, "return_reversal", { cardTransactionId: id })
      expect([notRefunded.status, notRefunded.body.code]).toEqual([400, "INVALID_INPUT"])
      // Refunded again, then spent elsewhere: the reversal cannot be pulled.
      await simulate(t, f.card.id, "return", { cardTransactionId: id, amount: 1000 })
      await authorize(t, f.card.id, 600)
      await simulate(t, f.card.id, "return_reversal", { cardTransactionId: id })
      expect((await getTransaction(t, id)).status).toBe("EXCEPTION")
      expect(await balances(t, f.customerId)).toEqual({ available: 400, total: 1000 })
    })

    it("an authorization advice re-sizes the hold to a new total; more than is available is declined, less than settled is 400", async () => {
      const f = await funded(5000)
      const id = await authorize(t, f.card.id, 1000)
      await simulate(t, f.card.id, "authorization_advice", { cardTransactionId: id, amount: 2000 })
      expect(await getTransaction(t, id)).toMatchObject({ status: "AUTHORIZED", authorizedAmount: { amount: 2000 }, pullSummary: { count: 2, totalAmount: 2000 } })
      expect(await balances(t, f.customerId)).toEqual({ available: 3000, total: 5000 })
      await simulate(t, f.card.id, "authorization_advice", { cardTransactionId: id, amount: 500 })
      expect(await balances(t, f.customerId)).toEqual({ available: 4500, total: 5000 })
      const tooMuch = await simulate(t, f.card.id, "authorization_advice", { cardTransactionId: id, amount: 9000 })
      expect([tooMuch.status, tooMuch.body.declineReason]).toEqual([202, "INSUFFICIENT_FUNDS"])
      expect((await getTransaction(t, id)).authorizedAmount.amount).toBe(500)
      await simulate(t, f.card.id, "clearing", { cardTransactionId: id, amount: 300 })
      const below = await simulate(t, f.card.id, "authorization_advice", { cardTransactionId: id, amount: 200 })
      expect([below.status, below.body.details.errors[0].field]).toEqual([400, "amount"])
    })
  })

  describe("the other simulators", () => {
    it("a financial authorization is a single-message debit: SETTLED at once, the money gone", async () => {
      const f = await funded()
      const id = await authorize(t, f.card.id, 8000, "ATM WITHDRAWAL 24TH ST", "financial_authorization")
      expect(await getTransaction(t, id)).toMatchObject({ status: "SETTLED", direction: "DEBIT", settledAmount: { amount: 8000 } })
      expect(await balances(t, f.customerId)).toEqual({ available: 2000, total: 2000 })
      expect(await types(id)).toEqual(["CARD_TRANSACTION.SETTLED"])
    })

    it("a financial credit is credited at once; a credit authorization (or advice) only when it clears", async () => {
      const f = await funded(0)
      const single = await authorize(t, f.card.id, 4000, "ACME PAYOUTS", "financial_credit_authorization")
      expect(await getTransaction(t, single)).toMatchObject({ status: "SETTLED", direction: "CREDIT", settledAmount: { amount: 4000 } })
      expect(await balances(t, f.customerId)).toEqual({ available: 4000, total: 4000 })
      let expected = 4000
      for (const kind of ["credit_authorization", "credit_authorization_advice"]) {
        const id = await authorize(t, f.card.id, 2500, "ACME MARKETPLACE", kind)
        expect(await getTransaction(t, id)).toMatchObject({ status: "AUTHORIZED", direction: "CREDIT", pullSummary: { count: 0, totalAmount: 0 } })
        expect((await balances(t, f.customerId)).available).toBe(expected)
        await simulate(t, f.card.id, "clearing", { cardTransactionId: id, amount: 2500 })
        expect((await getTransaction(t, id)).status).toBe("SETTLED")
        expected += 2500
        expect(await balances(t, f.customerId)).toEqual({ available: expected, total: expected })
      }
      // The credited money is spendable.
      expect(await authorize(t, f.card.id, expected)).toMatch(/^CardTransaction:/)
    })

    it("a credit cannot clear for more than was authorized: 400 on amount, nothing credited", async () => {
      const f = await funded(0)
      const id = await authorize(t, f.card.id, 100, "ACME MARKETPLACE", "credit_authorization")
      const over = await simulate(t, f.card.id, "clearing", { cardTransactionId: id, amount: 1_000_000 })
      expect(over.status).toBe(400)
      expect(over.body.details.errors[0].field).toBe("amount")
      expect(await balances(t, f.customerId)).toEqual({ available: 0, total: 0 })
      expect((await getTransaction(t, id)).status).toBe("AUTHORIZED")
      expect((await simulate(t, f.card.id, "clearing", { cardTransactionId: id, amount: 100 })).status).toBe(202)
      expect(await balances(t, f.customerId)).toEqual({ available: 100, total: 100 })
    })

    it("a balance inquiry answers a token and records nothing; on a frozen card it is declined", async () => {
      const f = await funded()
      const r = await simulate(t, f.card.id, "balance_inquiry", { merchant: merchant("SHELL OIL 12345678") })
      expect(r.status).toBe(202)
      expect(r.body).toEqual({ issuerTransactionToken: expect.stringMatching(/^sandbox_txn_/) })
      expect((await t.request("GET", `${V}/transactions?type=CARD&customerId=${encodeURIComponent(f.customerId)}`)).body.data).toEqual([])
      await patchCard(t, f.card.id, { state: "FROZEN" })
      expect((await simulate(t, f.card.id, "balance_inquiry", { merchant: merchant() })).body.declineReason).toBe("CARD_PAUSED")
    })
  })

  describe("Authorization Decisioning", () => {
    it.each([
      ["002", "INSUFFICIENT_FUNDS"],
      ["003", "CARD_PAUSED"]
    ])("a merchant descriptor ending %s is declined %s: nothing recorded, nothing held", async (suffix, reason) => {
      const f = await funded()
      const r = await simulate(t, f.card.id, "authorization", { amount: 100, currency: { code: "USDB" }, merchant: merchant(`AMAZON RETAIL US-${suffix}`) })
      expect([r.status, r.body.declineReason, r.body.cardTransactionId]).toEqual([202, reason, undefined])
      expect(await balances(t, f.customerId)).toEqual({ available: 10_000, total: 10_000 })
    })

    it("frozen, closed and unprovisioned cards decline; the limit allows exactly its amount; more than available is declined", async () => {
      const f = await funded(1000, { maxSpendPerTransaction: 500 })
      const auth = (amount: number, card = f.card.id) => simulate(t, card, "authorization", { amount, currency: { code: "USDB" }, merchant: merchant() })
      expect((await auth(501)).body.declineReason).toBe("MAX_SPEND_EXCEEDED")
      expect((await auth(500)).body.cardTransactionId).toMatch(/^CardTransaction:/)
      await patchCard(t, f.card.id, { maxSpendPerTransaction: null })
      expect((await auth(501)).body.declineReason).toBe("INSUFFICIENT_FUNDS")
      await patchCard(t, f.card.id, { state: "FROZEN" })
      expect((await auth(1)).body.declineReason).toBe("CARD_PAUSED")
      await patchCard(t, f.card.id, { state: "CLOSED" })
      expect((await auth(1)).body.declineReason).toBe("CARD_CLOSED")
      const processing = await issue(t, f, { platformCardId: "s-001" })
      expect((await auth(1, processing.id)).body.declineReason).toBe("CARD_NOT_ACTIVE")
      expect(await balances(t, f.customerId)).toEqual({ available: 500, total: 1000 })
    })

    it("006: the pull's confirmation fails, the transaction is EXCEPTION and nothing is taken", async () => {
      const f = await funded()
      const id = await authorize(t, f.card.id, 700, "FLAKY SHOP 006")
      expect(await getTransaction(t, id)).toMatchObject({ status: "EXCEPTION", pullSummary: { count: 0 } })
      expect(await balances(t, f.customerId)).toEqual({ available: 10_000, total: 10_000 })
      expect(await types(id)).toEqual(["CARD_TRANSACTION.EXCEPTION"])
    })

    it("005: the pull stays pending for 30 s on the engine's clock, then is confirmed", async () => {
      const f = await funded()
      const id = await authorize(t, f.card.id, 700, "SLOW SHOP 005")
      expect((await getTransaction(t, id)).pullSummary).toEqual({ count: 1, totalAmount: 700, pendingCount: 1 })
      expect((await balances(t, f.customerId)).available).toBe(9300)
      await advance(t, 30)
      expect((await getTransaction(t, id)).pullSummary).toEqual({ count: 1, totalAmount: 700, pendingCount: 0 })
      expect(await types(id)).toEqual(["CARD_TRANSACTION.AUTHORIZED", "CARD_TRANSACTION.AUTHORIZED"])
    })
  })

  describe("errors", () => {
    it("404 for no card, and TRANSACTION_NOT_FOUND for a transaction of no one or of another card", async () => {
      const f = await funded()
      const other = await issue(t, f)
      const id = await authorize(t, f.card.id, 100)
      const noCard = await simulate(t, "Card:00000000-0000-4000-8000-000000000009", "authorization", { amount: 1, currency: { code: "USDB" }, merchant: merchant() })
      expect([noCard.status, noCard.body.code]).toEqual([404, "REFERENCE_NOT_FOUND"])
      const wrongCard = await simulate(t, other.id, "clearing", { cardTransactionId: id, amount: 100 })
      expect([wrongCard.status, wrongCard.body.code]).toEqual([404, "TRANSACTION_NOT_FOUND"])
      const nothing = await simulate(t, f.card.id, "return_reversal", { cardTransactionId: "CardTransaction:00000000-0000-4000-8000-000000000009" })
      expect([nothing.status, nothing.body.code]).toEqual([404, "TRANSACTION_NOT_FOUND"])
    })

    it("400 for another currency than the card's, and every invalid field at once", async () => {
      const f = await funded()
      const usd = await simulate(t, f.card.id, "authorization", { amount: 100, currency: { code: "USD" }, merchant: merchant() })
      expect([usd.status, usd.body.details.errors[0].field]).toEqual([400, "currency.code"])
      const bad = await simulate(t, f.card.id, "authorization", { amount: 0, currency: {}, merchant: { mcc: "12" } })
      expect(bad.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(["amount", "currency.code", "merchant.descriptor", "merchant.mcc"])
      const clearing = await simulate(t, f.card.id, "clearing", { amount: -1 })
      expect(clearing.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(["amount", "cardTransactionId"])
    })

    it("a card transaction answers no platform action: approve, reject and cancel are 409, confirm is 400", async () => {
      const f = await funded()
      const id = await authorize(t, f.card.id, 100)
      expect((await t.request("POST", `${V}/transactions/${id}/approve`)).body.code).toBe("TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL")
      expect((await t.request("POST", `${V}/transactions/${id}/reject`, { body: {} })).body.code).toBe("TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL")
      expect((await t.request("POST", `${V}/transactions/${id}/cancel`)).body.code).toBe("TRANSACTION_NOT_CANCELLABLE")
      expect((await t.request("POST", `${V}/transactions/${id}/confirm`)).status).toBe(400)
      expect((await getTransaction(t, id)).status).toBe("AUTHORIZED")
    })
  })
})
