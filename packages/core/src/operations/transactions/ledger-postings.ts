import { Effect } from "effect"
import { worldAccount } from "../../domain/ledger/ledger.ts"
import type { Funds, LedgerLink, TransactionRecord } from "../../domain/transactions/transaction.ts"
import { post } from "../ledger/ledger.ts"
import { clearPending, credit, debit, hold, release, settle } from "../ledger/movements.ts"

/**
 * The ledger movement for each move of a transaction's funds (`machines/transaction.ts`,
 * `canMoveFunds`), on the internal account the transaction moves through; the world's side is
 * the `external` account of the currency (money that left by, or arrives from, a rail). The
 * journal line's reference is the transaction.
 */
const movement = (scope: string, link: LedgerLink, reference: string, from: Funds, to: Funds) => {
  const m = { account: link.accountId, amount: link.amount, reference }
  switch (`${from}>${to}`) {
    case "NONE>HELD":
      return hold(scope, m)
    case "HELD>SENT":
      return settle(scope, { ...m, counterparty: "external" })
    case "HELD>RELEASED":
      return release(scope, m)
    case "SENT>RETURNED":
      return credit(scope, { ...m, kind: "RETURN", counterparty: "external" })
    case "NONE>SENT":
      return debit(scope, { ...m, counterparty: "external" })
    case "NONE>INCOMING":
      return credit(scope, { ...m, counterparty: "external", into: "pending" })
    case "INCOMING>RECEIVED":
      return clearPending(scope, m)
    case "NONE>RECEIVED":
      return credit(scope, { ...m, counterparty: "external" })
    case "INCOMING>RELEASED":
      // The announced money never came: it goes back to the world it was coming from.
      return post(scope, {
        kind: "CANCEL_PENDING",
        reference,
        entries: [
          { account: link.accountId, currency: link.currency, bucket: "pending", amount: -link.amount },
          { account: worldAccount("external", link.currency), currency: link.currency, bucket: "available", amount: link.amount }
        ]
      })
    default:
      return Effect.void
  }
}

/**
 * Posts the ledger movement of a transaction whose funds moved (`before.ledger.funds` →
 * `after.ledger.funds`), in the caller's Store transaction. A hold the available balance cannot
 * cover fails (the ledger refuses a bucket below zero), and with it the whole transaction.
 */
export const postFunds = (scope: string, before: TransactionRecord, after: TransactionRecord, _atMs: number) =>
  before.ledger === undefined || after.ledger === undefined || before.ledger.funds === after.ledger.funds
    ? Effect.void
    : Effect.asVoid(movement(scope, after.ledger, after.id, before.ledger.funds, after.ledger.funds))
