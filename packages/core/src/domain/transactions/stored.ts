import { type CardTransactionRecord, cardTransactionView } from "../cards/card-transaction.ts"
import { type TransactionRecord, transactionView } from "./transaction.ts"

/** A record of the Transactions collection: a payment (OUTGOING, INCOMING) or a card transaction. */
export type StoredTransaction = TransactionRecord | CardTransactionRecord

export const isPayment = (t: StoredTransaction): t is TransactionRecord => t.type !== "CARD"

/** The reference's `TransactionOneOf` member for the record (its discriminator is `type`). */
export const storedTransactionView = (t: StoredTransaction) => (isPayment(t) ? transactionView(t) : cardTransactionView(t))
