import { Either } from "effect"
import type { CardRecord } from "../domain/cards/card.ts"
import { type CardMerchant, type CardTransactionRecord, type CardTransactionStatus, cardTransactionView } from "../domain/cards/card-transaction.ts"
import type { DomainError } from "../domain/envelope.ts"
import { invalidInput } from "../domain/field-errors.ts"
import type { Currency } from "../domain/internal-accounts/internal-account.ts"
import { rfc3339 } from "../domain/time.ts"
import type { DecisioningOutcome } from "../sandbox/cards.ts"
import type { Emitted } from "./transition.ts"

/**
 * Card transactions as one pure machine (DECISIONS #206–#210): Authorization Decisioning for the
 * simulators that start one, and what clearing, return, advice, return reversal and a delayed
 * pull's confirmation do to an existing one. Each answer names the ledger moves on the funding
 * source (`CardMove`); the operation posts them in the same Store transaction. A debit never
 * takes more than the funding source's available balance: the caller passes what is available
 * and the machine declines (or records EXCEPTION) rather than overdraw.
 */

/** available → held, held → available, held → world, available → world, world → available. */
export type CardMove = { readonly kind: "HOLD" | "RELEASE" | "SETTLE" | "DEBIT" | "CREDIT"; readonly amount: number }

export type StartKind = "AUTHORIZATION" | "FINANCIAL_AUTHORIZATION" | "CREDIT_AUTHORIZATION" | "FINANCIAL_CREDIT_AUTHORIZATION"

export type DeclineReason = "CARD_PAUSED" | "CARD_CLOSED" | "CARD_NOT_ACTIVE" | "INSUFFICIENT_FUNDS" | "MAX_SPEND_EXCEEDED"

export interface FundingSource {
  readonly id: string
  readonly available: number
}

export interface StartRequest {
  readonly kind: StartKind
  readonly id: string
  readonly token: string
  readonly card: CardRecord
  readonly platformCustomerId: string
  readonly amount: number
  readonly currency: Currency
  readonly merchant: CardMerchant
  readonly outcome: DecisioningOutcome
  /** The card's funding sources in priority order, with their available balances. */
  readonly sources: ReadonlyArray<FundingSource>
}

export type Step =
  | { readonly _tag: "Declined"; readonly reason: DeclineReason }
  | {
      readonly _tag: "Changed"
      readonly state: CardTransactionRecord
      readonly moves: ReadonlyArray<CardMove>
      readonly emit: ReadonlyArray<Emitted>
      /** A pull still pending: the operation schedules its confirmation. */
      readonly pendingPull?: boolean
    }

export const webhookFor = (t: CardTransactionRecord): Emitted => ({ type: `CARD_TRANSACTION.${t.status}`, resourceId: t.id, data: cardTransactionView(t) })

const changed = (state: CardTransactionRecord, moves: ReadonlyArray<CardMove>, pendingPull = false): Step => ({
  _tag: "Changed",
  state,
  moves: moves.filter((m) => m.amount > 0),
  emit: [webhookFor(state)],
  ...(pendingPull ? { pendingPull } : {})
})

const declined = (reason: DeclineReason): Step => ({ _tag: "Declined", reason })

export const isDebit = (kind: StartKind): boolean => kind === "AUTHORIZATION" || kind === "FINANCIAL_AUTHORIZATION"

/** Why the card itself refuses any new authorization, if it does. */
export const cardRefusal = (card: CardRecord): DeclineReason | undefined =>
  card.state === "ACTIVE" ? undefined : card.state === "FROZEN" ? "CARD_PAUSED" : card.state === "CLOSED" ? "CARD_CLOSED" : "CARD_NOT_ACTIVE"

/** Authorization Decisioning: declines in a fixed order, else the new transaction and its moves. */
export const start = (r: StartRequest, now: number): Step => {
  const refusal = cardRefusal(r.card)
  if (refusal !== undefined) return declined(refusal)
  if (r.outcome === "CARD_PAUSED") return declined("CARD_PAUSED")
  if (r.outcome === "INSUFFICIENT_FUNDS") return declined("INSUFFICIENT_FUNDS")
  const debit = isDebit(r.kind)
  if (debit && r.card.maxSpendPerTransaction !== null && r.amount > r.card.maxSpendPerTransaction) return declined("MAX_SPEND_EXCEEDED")
  // A debit is funded by the first source that covers it; a credit goes to the first source.
  const source = debit ? r.sources.find((s) => s.available >= r.amount) : r.sources[0]
  if (source === undefined) return declined("INSUFFICIENT_FUNDS")
  const at = rfc3339(now)
  const single = r.kind === "FINANCIAL_AUTHORIZATION" || r.kind === "FINANCIAL_CREDIT_AUTHORIZATION"
  // 006: the pull succeeded but its confirmation failed; nothing is taken from the source.
  const exception = r.outcome === "EXCEPTION"
  const delayed = debit && r.outcome === "DELAYED_PULL" && !exception
  const status: CardTransactionStatus = exception ? "EXCEPTION" : single ? "SETTLED" : "AUTHORIZED"
  const settled = single && !exception ? r.amount : 0
  const held = r.kind === "AUTHORIZATION" && !exception ? r.amount : 0
  const t: CardTransactionRecord = {
    type: "CARD",
    id: r.id,
    cardId: r.card.id,
    customerId: r.card.cardholderId,
    platformCustomerId: r.platformCustomerId,
    issuerTransactionToken: r.token,
    status,
    direction: debit ? "DEBIT" : "CREDIT",
    merchant: r.merchant,
    currency: r.currency,
    authorizedAmount: r.amount,
    settledAmount: settled,
    refundedAmount: 0,
    accountId: source.id,
    pullSummary: debit && !exception ? { count: 1, totalAmount: r.amount, pendingCount: delayed ? 1 : 0 } : { count: 0, totalAmount: 0, pendingCount: 0 },
    refundSummary: { count: 0, totalAmount: 0 },
    settlementSummary: settled > 0 ? { count: 1, totalAmount: settled } : { count: 0, totalAmount: 0 },
    authorizedAt: at,
    lastEventAt: at,
    createdAt: at,
    updatedAt: at,
    held,
    senderIdentifiers: debit ? [source.id] : [],
    receiverIdentifiers: debit ? [] : [source.id]
  }
  if (exception) return changed(t, [])
  const moves: Array<CardMove> =
    r.kind === "AUTHORIZATION"
      ? [{ kind: "HOLD", amount: r.amount }]
      : r.kind === "FINANCIAL_AUTHORIZATION"
        ? [{ kind: "DEBIT", amount: r.amount }]
        : r.kind === "FINANCIAL_CREDIT_AUTHORIZATION"
          ? [{ kind: "CREDIT", amount: r.amount }]
          : []
  return changed(t, moves, delayed)
}

/** What happens to an existing card transaction. `available` is its funding source's available balance now. */
export type CardTransactionEvent =
  | { readonly _tag: "Clear"; readonly amount: number; readonly available: number }
  | { readonly _tag: "Return"; readonly amount: number }
  | { readonly _tag: "Advise"; readonly amount: number; readonly available: number }
  | { readonly _tag: "ReverseReturn"; readonly available: number }
  | { readonly _tag: "ConfirmPull" }

const wrongState = (t: CardTransactionRecord, allowed: ReadonlyArray<string>) =>
  Either.left(invalidInput([{ field: "cardTransactionId", message: `must be a card transaction in ${allowed.join(" or ")}; ${t.id} is ${t.status}` }]))

const isOpen = (t: CardTransactionRecord) => t.status === "AUTHORIZED" || t.status === "PARTIALLY_SETTLED"

const touch = (t: CardTransactionRecord, now: number) => ({ ...t, lastEventAt: rfc3339(now), updatedAt: rfc3339(now) })

const clear = (t: CardTransactionRecord, amount: number, available: number, now: number): Step => {
  const base = touch(t, now)
  const settlementSummary = amount === 0 ? t.settlementSummary : { count: t.settlementSummary.count + 1, totalAmount: t.settlementSummary.totalAmount + amount }
  const settledAmount = t.settledAmount + amount
  if (t.direction === "CREDIT") {
    // A credit reaches the source when it clears; 0 lets the credit authorization lapse.
    const remaining = t.authorizedAmount - t.settledAmount
    const status = amount > 0 && amount < remaining ? "PARTIALLY_SETTLED" : "SETTLED"
    return changed({ ...base, status, settledAmount, settlementSummary }, [{ kind: "CREDIT", amount }])
  }
  // 0 is authorization expiry: whatever is still held goes back, the transaction closes.
  if (amount === 0) return changed({ ...base, status: "SETTLED", held: 0 }, [{ kind: "RELEASE", amount: t.held }])
  if (amount <= t.held) {
    const held = t.held - amount
    return changed({ ...base, status: held > 0 ? "PARTIALLY_SETTLED" : "SETTLED", held, settledAmount, settlementSummary }, [{ kind: "SETTLE", amount }])
  }
  // Over-auth: the hold settles and the excess is pulled after the fact, if the source covers it;
  // if not, the network was paid but the pull failed: EXCEPTION, and nothing more is taken.
  const excess = amount - t.held
  const pulled = available >= excess
  return changed(
    {
      ...base,
      status: pulled ? "SETTLED" : "EXCEPTION",
      held: 0,
      settledAmount,
      settlementSummary,
      pullSummary: pulled ? { ...t.pullSummary, count: t.pullSummary.count + 1, totalAmount: t.pullSummary.totalAmount + excess } : t.pullSummary
    },
    [{ kind: "SETTLE", amount: t.held }, ...(pulled ? [{ kind: "DEBIT" as const, amount: excess }] : [])]
  )
}

export const cardTransactionStep = (t: CardTransactionRecord, event: CardTransactionEvent, now: number): Either.Either<Step, DomainError> => {
  switch (event._tag) {
    case "Clear":
      if (!isOpen(t)) return wrongState(t, ["AUTHORIZED", "PARTIALLY_SETTLED"])
      // Over-authorization is a debit's risk (the merchant took more); a credit cleared beyond what
      // was authorized would create money from nothing, so it is refused.
      if (t.direction === "CREDIT" && event.amount > t.authorizedAmount - t.settledAmount)
        return Either.left(invalidInput([{ field: "amount", message: `a credit clears at most its remaining authorized ${t.authorizedAmount - t.settledAmount}; got ${event.amount}` }]))
      return Either.right(clear(t, event.amount, event.available, now))
    case "Return": {
      if (t.direction !== "DEBIT" || (t.status !== "SETTLED" && t.status !== "PARTIALLY_SETTLED") || t.settledAmount === 0)
        return wrongState(t, ["SETTLED", "PARTIALLY_SETTLED (a debit with a settled clearing)"])
      const net = t.settledAmount - t.refundedAmount
      if (event.amount > net) return Either.left(invalidInput([{ field: "amount", message: `must be at most the net settled amount, ${net}` }]))
      const refundedAmount = t.refundedAmount + event.amount
      const full = t.status === "SETTLED" && refundedAmount === t.settledAmount
      return Either.right(
        changed(
          {
            ...touch(t, now),
            status: full ? "REFUNDED" : t.status,
            refundedAmount,
            refundSummary: { count: t.refundSummary.count + 1, totalAmount: t.refundSummary.totalAmount + event.amount }
          },
          [{ kind: "CREDIT", amount: event.amount }]
        )
      )
    }
    case "Advise": {
      if (!isOpen(t)) return wrongState(t, ["AUTHORIZED", "PARTIALLY_SETTLED"])
      if (event.amount < t.settledAmount) return Either.left(invalidInput([{ field: "amount", message: `must be at least the amount already settled, ${t.settledAmount}` }]))
      const base = { ...touch(t, now), authorizedAmount: event.amount }
      if (t.direction === "CREDIT") return Either.right(changed(base, []))
      const delta = event.amount - t.settledAmount - t.held
      if (delta > event.available) return Either.right(declined("INSUFFICIENT_FUNDS"))
      const pullSummary =
        delta > 0
          ? { ...t.pullSummary, count: t.pullSummary.count + 1, totalAmount: t.pullSummary.totalAmount + delta }
          : { ...t.pullSummary, totalAmount: t.pullSummary.totalAmount + delta }
      return Either.right(
        changed({ ...base, held: t.held + delta, pullSummary }, [delta >= 0 ? { kind: "HOLD", amount: delta } : { kind: "RELEASE", amount: -delta }])
      )
    }
    case "ReverseReturn": {
      if (t.status !== "REFUNDED") return wrongState(t, ["REFUNDED"])
      // The refunded money goes back out; if the source no longer has it, the pull fails.
      const pulled = event.available >= t.refundedAmount
      return Either.right(
        pulled
          ? changed({ ...touch(t, now), status: "SETTLED", refundedAmount: 0, refundSummary: { ...t.refundSummary, totalAmount: 0 } }, [
              { kind: "DEBIT", amount: t.refundedAmount }
            ])
          : changed({ ...touch(t, now), status: "EXCEPTION" }, [])
      )
    }
    case "ConfirmPull":
      if (t.pullSummary.pendingCount === 0) return Either.left(invalidInput([{ field: "cardTransactionId", message: `${t.id} has no pending pull` }]))
      return Either.right(changed({ ...touch(t, now), pullSummary: { ...t.pullSummary, pendingCount: 0 } }, []))
  }
}
