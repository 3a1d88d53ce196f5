import { Effect } from "effect"
import type { CardMove } from "../../machines/card-transaction.ts"
import { balanceOf } from "../ledger/ledger.ts"
import { credit, debit, hold, release, settle } from "../ledger/movements.ts"

/**
 * The ledger side of a card transaction (DECISIONS #207): each move the machine names is one
 * movement on the funding source, the world's `external` account of the currency on the other
 * side (the card network). The journal lines' reference is the card transaction.
 */
export const postCardMoves = (scope: string, accountId: string, reference: string, moves: ReadonlyArray<CardMove>) =>
  Effect.forEach(
    moves,
    (m) => {
      const base = { account: accountId, amount: m.amount, reference }
      switch (m.kind) {
        case "HOLD":
          return hold(scope, { ...base, kind: "CARD_HOLD" })
        case "RELEASE":
          return release(scope, { ...base, kind: "CARD_RELEASE" })
        case "SETTLE":
          return settle(scope, { ...base, kind: "CARD_SETTLE", counterparty: "external" })
        case "DEBIT":
          return debit(scope, { ...base, kind: "CARD_PULL", counterparty: "external" })
        case "CREDIT":
          return credit(scope, { ...base, kind: "CARD_CREDIT", counterparty: "external" })
      }
    },
    { discard: true }
  )

/** What an internal account can spend now. */
export const availableOf = (scope: string, accountId: string) => Effect.map(balanceOf(scope, accountId), (b) => b.available)
