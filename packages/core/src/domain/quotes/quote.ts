import type { Currency } from "../internal-accounts/internal-account.ts"
import type { FundingInstruction } from "../../sandbox/funding-instructions.ts"
import type { QuoteStatus } from "../../machines/quote.ts"
import type { SandboxUmaOutcome } from "../../sandbox/uma-receivers.ts"
import { quoteStatusAt } from "../../machines/quote.ts"
import { rfc3339 } from "../time.ts"
import type { QuoteDestination, QuoteSource } from "./request.ts"

/**
 * Where the money of a quote comes from and goes to, resolved at creation: the request says only
 * `accountId`; which kind of account it names decides how execution moves money.
 */
export type QuoteSourceKind = "INTERNAL" | "EXTERNAL" | "REALTIME"
export type QuoteDestinationKind = "INTERNAL" | "EXTERNAL" | "UMA"

export interface QuoteRecord {
  readonly id: string
  /** The stored status; the status shown is `quoteStatusAt` (expiry is read off the clock). */
  readonly status: QuoteStatus
  readonly createdAt: string
  readonly expiresAtMs: number
  /** The customer on whose behalf the money moves (absent: the platform itself). */
  readonly customerId?: string
  readonly source: QuoteSource
  readonly sourceKind: QuoteSourceKind
  /** EMBEDDED_WALLET sources execute through a signed retry. */
  readonly sourceAccountType?: string
  readonly destination: QuoteDestination
  readonly destinationKind: QuoteDestinationKind
  readonly lockedCurrencySide: "SENDING" | "RECEIVING"
  readonly sendingCurrency: Currency
  readonly receivingCurrency: Currency
  readonly totalSendingAmount: number
  readonly totalReceivingAmount: number
  readonly exchangeRate: number
  readonly feesIncluded: number
  /** The transaction the quote creates when executed (reserved at creation: the reference requires it). */
  readonly transactionId: string
  readonly paymentInstructions?: ReadonlyArray<FundingInstruction>
  readonly lookupId?: string
  readonly description?: string
  readonly remittanceInformation?: string
  readonly purposeOfPayment?: string
  /** The destination account's sandbox outcome suffix (last three digits of its identifier). */
  readonly outcomeSuffix?: string
  /** A sandbox UMA receiver's outcome (from the lookup), for a UMA destination. */
  readonly umaOutcome?: SandboxUmaOutcome
  /** A UMA destination held by a customer of this platform: credited when the quote executes. */
  readonly umaReceiverCustomerId?: string
  readonly executedAt?: string
}

/** The resource as the API shows it (reference `Quote`), at `now` and with its transaction's status if executed. */
export const quoteView = (q: QuoteRecord, now: number, status: QuoteStatus = quoteStatusAt(q, now)) => ({
  id: q.id,
  status,
  createdAt: q.createdAt,
  expiresAt: rfc3339(q.expiresAtMs),
  source: q.source,
  destination: q.destination,
  sendingCurrency: q.sendingCurrency,
  receivingCurrency: q.receivingCurrency,
  totalSendingAmount: q.totalSendingAmount,
  totalReceivingAmount: q.totalReceivingAmount,
  exchangeRate: q.exchangeRate,
  feesIncluded: q.feesIncluded,
  platformFeesIncluded: 0,
  transactionId: q.transactionId,
  ...(q.paymentInstructions === undefined ? {} : { paymentInstructions: q.paymentInstructions })
})
export type QuoteView = ReturnType<typeof quoteView>
