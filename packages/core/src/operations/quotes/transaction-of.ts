import type { PlatformRecord } from "../../domain/platform/platform.ts"
import type { QuoteRecord } from "../../domain/quotes/quote.ts"
import { rfc3339 } from "../../domain/time.ts"
import type { OutcomePlan } from "../../domain/transactions/outcome-plan.ts"
import type { TransactionDestination, TransactionRecord, TransactionSource } from "../../domain/transactions/transaction.ts"
import { quoteOutcome, transferOutcome } from "../../sandbox/outcomes.ts"
import { umaPayoutOutcome } from "../../sandbox/uma-outcomes.ts"

/**
 * The transaction an executed quote starts, and the outcome it follows (DECISIONS #194):
 * - from an internal account: OUTGOING, the sending amount held on the source, the quote table
 *   by the destination's suffix (a UMA receiver's outcome by its name);
 * - pulled from an external account into an internal one: INCOMING, a pending credit of the
 *   receiving amount, the transfer-in table by the source's suffix;
 * - funded in real time: OUTGOING paid from outside (no internal account holds the money) to an
 *   external or UMA destination, or INCOMING credited to an internal destination.
 */
export const transactionOf = (
  platform: PlatformRecord,
  quote: QuoteRecord,
  platformCustomerId: string | undefined,
  now: number
): { readonly created: TransactionRecord; readonly plan: OutcomePlan } => {
  const incoming = quote.sourceKind === "EXTERNAL" || (quote.sourceKind === "REALTIME" && quote.destinationKind === "INTERNAL")
  const source: TransactionSource =
    quote.source.sourceType === "ACCOUNT"
      ? { sourceType: "ACCOUNT", accountId: quote.source.accountId, currency: quote.sendingCurrency.code }
      : { sourceType: "REALTIME_FUNDING", currency: quote.source.currency, ...(quote.customerId === undefined ? {} : { customerId: quote.customerId }) }
  const destination: TransactionDestination =
    quote.destination.destinationType === "ACCOUNT"
      ? { destinationType: "ACCOUNT", accountId: quote.destination.accountId, currency: quote.receivingCurrency.code }
      : { destinationType: "UMA_ADDRESS", umaAddress: quote.destination.umaAddress, currency: quote.receivingCurrency.code }
  const ledger =
    quote.sourceKind === "INTERNAL" && quote.source.sourceType === "ACCOUNT"
      ? { accountId: quote.source.accountId, amount: quote.totalSendingAmount, currency: quote.sendingCurrency.code, funds: "NONE" as const }
      : incoming && quote.destination.destinationType === "ACCOUNT"
        ? { accountId: quote.destination.accountId, amount: quote.totalReceivingAmount, currency: quote.receivingCurrency.code, funds: "NONE" as const }
        : undefined
  const at = rfc3339(now)
  const created: TransactionRecord = {
    id: quote.transactionId,
    type: incoming ? "INCOMING" : "OUTGOING",
    status: "CREATED",
    direction: incoming ? "CREDIT" : "DEBIT",
    source,
    destination,
    customerId: quote.customerId ?? platform.id,
    platformCustomerId: platformCustomerId ?? platform.id,
    sentAmount: { amount: quote.totalSendingAmount, currency: quote.sendingCurrency },
    receivedAmount: { amount: quote.totalReceivingAmount, currency: quote.receivingCurrency },
    fees: quote.feesIncluded,
    exchangeRate: quote.exchangeRate,
    quoteId: quote.id,
    ...(quote.description === undefined ? {} : { description: quote.description }),
    createdAt: at,
    updatedAt: at,
    ...(ledger === undefined ? {} : { ledger }),
    senderIdentifiers: quote.source.sourceType === "ACCOUNT" ? [quote.source.accountId] : [],
    receiverIdentifiers: [quote.destination.destinationType === "ACCOUNT" ? quote.destination.accountId : quote.destination.umaAddress],
    ...(quote.remittanceInformation === undefined ? {} : { reference: quote.remittanceInformation }),
    ...(quote.purposeOfPayment === undefined ? {} : { purposeOfPayment: quote.purposeOfPayment })
  }
  const plan =
    quote.sourceKind === "EXTERNAL"
      ? transferOutcome("INCOMING", quote.outcomeSuffix)
      : incoming
        ? transferOutcome("INCOMING", undefined)
        : quote.destination.destinationType === "UMA_ADDRESS"
          ? umaPayoutOutcome(quote.umaOutcome ?? "SUCCESS")
          : quoteOutcome(quote.outcomeSuffix)
  return { created, plan }
}
