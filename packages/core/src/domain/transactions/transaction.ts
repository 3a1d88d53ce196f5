import { Schema } from "effect"
import type { Currency } from "../internal-accounts/internal-account.ts"

/** The reference's `TransactionStatus` (every type); an OUTGOING one uses only six of them. */
export const TransactionStatus = Schema.Literal("CREATED", "PENDING", "PENDING_AUTHORIZATION", "PROCESSING", "COMPLETED", "REJECTED", "FAILED", "REFUNDED", "EXPIRED")
export type TransactionStatus = typeof TransactionStatus.Type

/** The reference's `OutgoingTransactionStatus`: what an OUTGOING transaction may show. */
export const outgoingStatuses: ReadonlySet<TransactionStatus> = new Set(["PENDING", "PENDING_AUTHORIZATION", "EXPIRED", "PROCESSING", "COMPLETED", "FAILED"])

export const TransactionType = Schema.Literal("INCOMING", "OUTGOING")
export type TransactionType = typeof TransactionType.Type

export type RefundStatus = "PENDING" | "COMPLETED" | "FAILED"
export type RefundReason = "TRANSACTION_FAILED" | "USER_CANCELLATION" | "TIMEOUT"

/** The reference's `OutgoingTransactionFailureReason`. */
export type OutgoingFailureReason =
  | "QUOTE_EXPIRED"
  | "QUOTE_RATE_UNAVAILABLE"
  | "QUOTE_EXECUTION_FAILED"
  | "FUNDING_AMOUNT_MISMATCH"
  | "SCA_NOT_COMPLETED"
  | "PAYOUT_RETURNED"
  | "LIMIT_EXCEEDED"
  | "ACCOUNT_CANNOT_RECEIVE"
  | "ACCOUNT_INVALID"
  | "COMPLIANCE_REJECTED"
  | "LIGHTNING_PAYMENT_FAILED"
  | "COUNTERPARTY_POST_TX_FAILED"

/** The reference's `IncomingTransactionFailureReason`. */
export type IncomingFailureReason =
  | "LNURLP_FAILED"
  | "PAY_REQUEST_FAILED"
  | "PAYMENT_APPROVAL_WEBHOOK_ERROR"
  | "PAYMENT_APPROVAL_TIMED_OUT"
  | "OFFRAMP_FAILED"
  | "MISSING_MANDATORY_PAYEE_DATA"
  | "QUOTE_EXPIRED"
  | "QUOTE_EXECUTION_FAILED"
  | "COMPLIANCE_REJECTED"
  | "COLLECTION_FAILED"

export type FailureReason = OutgoingFailureReason | IncomingFailureReason

/** The reference's `Refund`. */
export interface Refund {
  readonly reference: string
  readonly initiatedAt: string
  readonly settledAt?: string
  readonly status: RefundStatus
  readonly reason?: RefundReason
}

export interface CurrencyAmount {
  readonly amount: number
  readonly currency: Currency
}

/** The reference's `TransactionSourceOneOf`. */
export type TransactionSource =
  | { readonly sourceType: "ACCOUNT"; readonly accountId: string; readonly currency?: string }
  | { readonly sourceType: "UMA_ADDRESS"; readonly umaAddress: string; readonly currency?: string }
  | { readonly sourceType: "REALTIME_FUNDING"; readonly currency: string; readonly customerId?: string }

/** The reference's `TransactionDestinationOneOf`. */
export type TransactionDestination =
  | { readonly destinationType: "ACCOUNT"; readonly accountId: string; readonly currency?: string }
  | { readonly destinationType: "UMA_ADDRESS"; readonly umaAddress: string; readonly currency?: string }

/**
 * Where the transaction's money stands in the ledger, for the internal account it moves
 * through. OUTGOING: NONE → HELD (reserved from available) → SENT (left the platform) or
 * RELEASED (back to available); SENT → RETURNED (a bank return refunded). INCOMING: NONE →
 * INCOMING (pending credit, in totalBalance only) → RECEIVED (available) or RELEASED (never came).
 */
export type Funds = "NONE" | "HELD" | "SENT" | "RELEASED" | "RETURNED" | "INCOMING" | "RECEIVED"

/** The internal account a transaction's money moves through, and where it stands. */
export interface LedgerLink {
  readonly accountId: string
  readonly amount: number
  readonly currency: string
  readonly funds: Funds
}

/**
 * A transaction as stored. The reference's fields are kept as it names them; the bookkeeping
 * below them is never shown (see `transactionView`).
 */
export interface TransactionRecord {
  readonly id: string
  readonly type: TransactionType
  readonly status: TransactionStatus
  readonly direction: "CREDIT" | "DEBIT"
  readonly source?: TransactionSource
  readonly destination: TransactionDestination
  /** The customer on whose behalf it moves; the platform's id for platform-owned accounts (the reference's filter). */
  readonly customerId: string
  readonly platformCustomerId: string
  readonly sentAmount?: CurrencyAmount
  readonly receivedAmount?: CurrencyAmount
  readonly fees?: number
  readonly exchangeRate?: number
  readonly quoteId?: string
  readonly description?: string
  readonly refund?: Refund
  readonly failureReason?: FailureReason
  readonly paymentRail?: string
  readonly settledAt?: string
  readonly receiptDeliveryConfirmedAt?: string
  readonly counterpartyInformation?: Readonly<Record<string, unknown>>
  readonly createdAt: string
  readonly updatedAt: string
  // Bookkeeping, not shown:
  /** The ledger side of the transaction; absent when no internal account is involved. */
  readonly ledger?: LedgerLink
  /** Ids and identifiers of the sending and receiving accounts (the `*AccountIdentifier` filters). */
  readonly senderIdentifiers: ReadonlyArray<string>
  readonly receiverIdentifiers: ReadonlyArray<string>
  /** The payment reference given at creation (`remittanceInformation`), the `reference` filter. */
  readonly reference?: string
  readonly purposeOfPayment?: string
  /**
   * Waiting for the platform's approve or reject (DECISIONS #184); `approvalPlan` is what
   * follows an approval.
   */
  readonly awaitingApproval?: boolean
  readonly approvalPlan?: ReadonlyArray<unknown>
  /** The sandbox outcome the transaction follows (a plan name from `sandbox/outcomes.ts`). */
  readonly outcome?: string
}

const omitUndefined = <A extends Record<string, unknown>>(a: A): A => {
  const out: Record<string, unknown> = {}
  for (const k in a) if (a[k] !== undefined) out[k] = a[k]
  return out as A
}

/**
 * The reference's `OutgoingTransaction` or `IncomingTransaction` (the union's discriminator is
 * `type`). Only the reference's fields, in its order.
 */
export const transactionView = (t: TransactionRecord) =>
  omitUndefined({
    id: t.id,
    status: t.status,
    type: t.type,
    direction: t.direction,
    source: t.source,
    destination: t.destination,
    customerId: t.customerId,
    platformCustomerId: t.platformCustomerId,
    sentAmount: t.sentAmount,
    receivedAmount: t.receivedAmount,
    fees: t.fees,
    exchangeRate: t.exchangeRate,
    quoteId: t.quoteId,
    description: t.description,
    refund: t.refund,
    failureReason: t.failureReason,
    paymentRail: t.type === "OUTGOING" ? t.paymentRail : undefined,
    settledAt: t.settledAt,
    receiptDeliveryConfirmedAt: t.receiptDeliveryConfirmedAt,
    counterpartyInformation: t.counterpartyInformation,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt
  })

export type TransactionView = ReturnType<typeof transactionView>
