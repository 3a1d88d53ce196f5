/** The ledger's API for the operations that move money (DECISIONS #170). */
export { BALANCE_UPDATED, balanceOf, currencyOf, type Movement, movementsOf, post } from "./ledger.ts"
export { type CounterpartyMove, clearPending, credit, debit, hold, type MoneyMove, release, settle } from "./movements.ts"
export { buckets, type Bucket, type LedgerEntry, worldAccount, type WorldRole } from "../../domain/ledger/ledger.ts"
