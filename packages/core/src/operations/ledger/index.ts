/**
 * The ledger's API for the operations that move money (DECISIONS #170, #171). Everything here runs
 * inside the caller's `Store.transaction` (a nested transaction joins it), so the state change
 * and the money it moves commit together; a refused movement writes nothing and fails with:
 *   400 INVALID_AMOUNT (details.reason INSUFFICIENT_BALANCE)  more than is available would leave
 *   409 INVALID_STATE_TRANSITION                             more than is held or pending would leave
 *   400 AMOUNT_OUT_OF_RANGE                                  not a positive safe integer
 *   400 INVALID_CURRENCY                                     an entry in another currency than its account's
 *   404 REFERENCE_NOT_FOUND                                  an internal account that does not exist
 *
 * A payment out of an internal account, as the transaction machinery would write it:
 *
 *   yield* ledger.hold(platformId, { account, amount, reference: txId })              // on execute
 *   yield* ledger.settle(platformId, { account, amount, counterparty: "external", reference: txId }) // completed
 *   yield* ledger.release(platformId, { account, amount, reference: txId })           // failed before leaving
 *   yield* ledger.credit(platformId, { account, amount, counterparty: "external", reference: txId, kind: "REFUND" }) // returned
 *
 * Between currencies, post the two legs in one movement, each summing to zero in its currency:
 *
 *   yield* ledger.post(platformId, { kind: "SETTLE", reference: txId, entries: [
 *     { account, currency: "USD", bucket: "held", amount: -sent },
 *     { account: worldAccount("fx", "USD"), currency: "USD", bucket: "available", amount: sent - fees },
 *     { account: worldAccount("fees", "USD"), currency: "USD", bucket: "available", amount: fees },
 *     { account: worldAccount("fx", "MXN"), currency: "MXN", bucket: "available", amount: -received },
 *     { account: worldAccount("external", "MXN"), currency: "MXN", bucket: "available", amount: received }
 *   ] })
 *
 * Every change of an internal account's `balance` or `totalBalance` publishes
 * `INTERNAL_ACCOUNT.BALANCE_UPDATED` with the account, in the same transaction.
 */
export { BALANCE_UPDATED, balanceOf, currencyOf, type Movement, movementsOf, post } from "./ledger.ts"
export { type CounterpartyMove, clearPending, credit, debit, hold, type MoneyMove, release, settle } from "./movements.ts"
export { buckets, type Bucket, type LedgerEntry, worldAccount, type WorldRole } from "../../domain/ledger/ledger.ts"
