import { Schema } from "effect"
import type { Currency } from "../internal-accounts/internal-account.ts"
import type { CurrencyAmount } from "../transactions/transaction.ts"

/** The reference's `CardTransactionStatus`. */
export const CardTransactionStatus = Schema.Literal("AUTHORIZED", "PARTIALLY_SETTLED", "SETTLED", "REFUNDED", "EXCEPTION")
export type CardTransactionStatus = typeof CardTransactionStatus.Type

export interface CardMerchant {
  readonly descriptor: string
  readonly mcc?: string
  readonly country?: string
}

export interface CountAndTotal {
  readonly count: number
  readonly totalAmount: number
}

/**
 * A card transaction as stored, in the Transactions collection beside payments (so it appears in
 * GET /transactions and /transactions/{id}). The reference's fields are kept as it names them;
 * the bookkeeping after them is never shown (see `cardTransactionView`).
 */
export interface CardTransactionRecord {
  readonly type: "CARD"
  readonly id: string
  readonly cardId: string
  readonly customerId: string
  readonly platformCustomerId: string
  readonly issuerTransactionToken: string
  readonly status: CardTransactionStatus
  readonly direction: "DEBIT" | "CREDIT"
  readonly merchant: CardMerchant
  readonly currency: Currency
  readonly authorizedAmount: number
  readonly settledAmount: number
  readonly refundedAmount: number
  /** The funding source (internal account) Authorization Decisioning chose. */
  readonly accountId: string
  readonly pullSummary: CountAndTotal & { readonly pendingCount: number }
  readonly refundSummary: CountAndTotal
  readonly settlementSummary: CountAndTotal
  readonly authorizedAt: string
  readonly lastEventAt: string
  readonly createdAt: string
  readonly updatedAt: string
  // Bookkeeping, not shown:
  /** What is still held on the funding source for clearings to come (a debit's open authorization). */
  readonly held: number
  /** The GET /transactions account-identifier filters: the funding source on its side of the money. */
  readonly senderIdentifiers: ReadonlyArray<string>
  readonly receiverIdentifiers: ReadonlyArray<string>
}

const amount = (value: number, currency: Currency): CurrencyAmount => ({ amount: value, currency })

/** The reference's `CardTransaction`, in its field order; amounts not yet reached are left out. */
export const cardTransactionView = (t: CardTransactionRecord) => ({
  type: t.type,
  id: t.id,
  cardId: t.cardId,
  customerId: t.customerId,
  platformCustomerId: t.platformCustomerId,
  issuerTransactionToken: t.issuerTransactionToken,
  status: t.status,
  direction: t.direction,
  merchant: t.merchant,
  authorizedAmount: amount(t.authorizedAmount, t.currency),
  ...(t.settlementSummary.count === 0 ? {} : { settledAmount: amount(t.settledAmount, t.currency) }),
  ...(t.refundSummary.count === 0 ? {} : { refundedAmount: amount(t.refundedAmount, t.currency) }),
  accountId: t.accountId,
  pullSummary: t.pullSummary,
  refundSummary: t.refundSummary,
  settlementSummary: t.settlementSummary,
  authorizedAt: t.authorizedAt,
  lastEventAt: t.lastEventAt,
  createdAt: t.createdAt,
  updatedAt: t.updatedAt
})

export type CardTransactionView = ReturnType<typeof cardTransactionView>
