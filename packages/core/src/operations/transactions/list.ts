import { Schema } from "effect"
import { Transactions } from "../../domain/collections.ts"
import { DateTimeString, optional } from "../../domain/common.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { CardTransactionStatus } from "../../domain/cards/card-transaction.ts"
import { storedTransactionView } from "../../domain/transactions/stored.ts"
import { TransactionStatus, TransactionType } from "../../domain/transactions/transaction.ts"
import { type Condition, sortableTimestamp } from "../../ports/store.ts"
import { equal, listPage, pageParams } from "../common/listing.ts"

export const TransactionListQuery = Schema.Struct({
  customerId: optional(Schema.String),
  platformCustomerId: optional(Schema.String),
  accountIdentifier: optional(Schema.String),
  senderAccountIdentifier: optional(Schema.String),
  receiverAccountIdentifier: optional(Schema.String),
  // Card transactions are listed too, so their type and statuses filter as well (DECISIONS #211).
  status: optional(Schema.Union(TransactionStatus, CardTransactionStatus)),
  type: optional(Schema.Union(TransactionType, Schema.Literal("CARD"))),
  reference: optional(Schema.String),
  startDate: optional(DateTimeString),
  endDate: optional(DateTimeString),
  sortOrder: optional(Schema.Literal("asc", "desc")),
  ...pageParams
})

/** Inclusive bounds on the creation time (the reference: "inclusive"). */
const createdBetween = (start: string | undefined, end: string | undefined): Condition | undefined =>
  start === undefined && end === undefined
    ? undefined
    : {
        index: "createdAt",
        ...(start === undefined ? {} : { gte: sortableTimestamp(start) ?? "" }),
        ...(end === undefined ? {} : { lte: sortableTimestamp(end) ?? "" })
      }

/**
 * GET /transactions: the platform's transactions, newest first unless `sortOrder=asc`, filtered
 * by every parameter the reference names, each answered from an index. An account identifier is
 * an account's id or its identifier on the rail (account number, IBAN, address, UMA address).
 * Outcome steps are not applied here: the list shows what the runner has applied (DECISIONS #186).
 */
export const listTransactions = (platform: PlatformRecord, query: unknown) =>
  listPage({
    collection: Transactions,
    scope: platform.id,
    querySchema: TransactionListQuery,
    query,
    where: (q) => [
      equal("customerId", q.customerId),
      equal("platformCustomerId", q.platformCustomerId),
      equal("accountIdentifier", q.accountIdentifier),
      equal("senderIdentifier", q.senderAccountIdentifier),
      equal("receiverIdentifier", q.receiverAccountIdentifier),
      equal("status", q.status),
      equal("type", q.type),
      equal("reference", q.reference),
      createdBetween(q.startDate, q.endDate)
    ],
    view: storedTransactionView,
    descending: (q) => q.sortOrder !== "asc"
  })
