import { Schema } from "effect"
import { DateTimeString, optional } from "../common.ts"
import { IdSchema } from "../ids.ts"
import { TransactionStatus, TransactionType } from "../transactions/transaction.ts"
import { lazily } from "./lazily.ts"

/**
 * What an imported transaction must satisfy: the fields its indexes, view and machine read.
 * An imported transaction that is not settled has no due step: it stays where it is until it is
 * cancelled (DECISIONS #180).
 */
export const transactionStates = lazily(() => {
  const Amount = Schema.Struct({
    amount: Schema.Number.pipe(Schema.int()),
    currency: Schema.Struct({ code: Schema.String, name: Schema.String, symbol: Schema.String, decimals: Schema.Number.pipe(Schema.int(), Schema.nonNegative()) })
  })
  const Funds = Schema.Literal("NONE", "HELD", "SENT", "RELEASED", "RETURNED", "INCOMING", "RECEIVED")

  const TransactionState = Schema.Struct({
    id: IdSchema("Transaction"),
    type: TransactionType,
    status: TransactionStatus,
    direction: Schema.Literal("CREDIT", "DEBIT"),
    source: optional(Schema.Struct({ sourceType: Schema.Literal("ACCOUNT", "UMA_ADDRESS", "REALTIME_FUNDING") })),
    destination: Schema.Struct({ destinationType: Schema.Literal("ACCOUNT", "UMA_ADDRESS") }),
    customerId: Schema.String,
    platformCustomerId: Schema.String,
    sentAmount: optional(Amount),
    receivedAmount: optional(Amount),
    refund: optional(
      Schema.Struct({ reference: Schema.String, initiatedAt: DateTimeString, status: Schema.Literal("PENDING", "COMPLETED", "FAILED") })
    ),
    ledger: optional(
      Schema.Struct({ accountId: IdSchema("InternalAccount"), amount: Schema.Number.pipe(Schema.int(), Schema.nonNegative()), currency: Schema.String, funds: Funds })
    ),
    senderIdentifiers: Schema.Array(Schema.String),
    receiverIdentifiers: Schema.Array(Schema.String),
    reference: optional(Schema.String),
    awaitingApproval: optional(Schema.Boolean),
    createdAt: DateTimeString,
    updatedAt: DateTimeString
  })
  return { TransactionState }
})
