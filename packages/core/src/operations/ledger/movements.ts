import { Effect, Option } from "effect"
import { InternalAccounts } from "../../domain/collections.ts"
import { AmountOutOfRange } from "../../domain/errors.ts"
import { type Bucket, worldAccount, type WorldRole } from "../../domain/ledger/ledger.ts"
import { referenceNotFound } from "../../domain/not-found.ts"
import { Store } from "../../ports/store.ts"
import { currencyOf, post } from "./ledger.ts"

/**
 * The movements money makes, each one `post` of two entries on an internal account (DECISIONS
 * #170). The counterparty of a payment in or out is a world account (`world`) or any other ledger
 * account id (an external account's id, another internal account of the same currency).
 *
 *   credit        counterparty → available (or pending: money announced, not yet spendable)
 *   clearPending  pending → available
 *   debit         available → counterparty
 *   hold          available → held (set aside for a payment in flight)
 *   release       held → available (the payment failed or was cancelled)
 *   settle        held → counterparty (the payment left)
 */

export interface MoneyMove {
  /** The internal account. */
  readonly account: string
  /** Smallest unit of the account's currency; a positive integer. */
  readonly amount: number
  readonly reference?: string
  /** The journal's name for it; each helper has a default. */
  readonly kind?: string
}

export interface CounterpartyMove extends MoneyMove {
  /** A world role (its account in the internal account's currency) or a ledger account id. */
  readonly counterparty: WorldRole | { readonly account: string }
}

const positive = (amount: number) =>
  Number.isSafeInteger(amount) && amount > 0
    ? Effect.void
    : Effect.fail(
        new AmountOutOfRange({
          message: `Amount must be a positive integer of at most ${Number.MAX_SAFE_INTEGER} in the currency's smallest unit`,
          details: { amount }
        })
      )

const currencyFor = (platformId: string, account: string) =>
  Effect.gen(function* () {
    const found = yield* (yield* Store).get(InternalAccounts, platformId, account)
    if (Option.isNone(found)) return yield* Effect.fail(referenceNotFound("InternalAccount", account))
    return currencyOf(found.value)
  })

/** Two entries: `amount` leaves `from` (account, bucket) and arrives at `to`. */
const pair = (
  platformId: string,
  m: MoneyMove,
  defaultKind: string,
  from: { readonly account?: string; readonly bucket: Bucket },
  to: { readonly account?: string; readonly bucket: Bucket },
  counterparty?: CounterpartyMove["counterparty"]
) =>
  Effect.gen(function* () {
    yield* positive(m.amount)
    const currency = yield* currencyFor(platformId, m.account)
    const other = counterparty === undefined ? m.account : typeof counterparty === "string" ? worldAccount(counterparty, currency) : counterparty.account
    return yield* post(platformId, {
      kind: m.kind ?? defaultKind,
      ...(m.reference === undefined ? {} : { reference: m.reference }),
      entries: [
        { account: from.account ?? other, currency, bucket: from.bucket, amount: -m.amount },
        { account: to.account ?? other, currency, bucket: to.bucket, amount: m.amount }
      ]
    })
  })

export const credit = (platformId: string, m: CounterpartyMove & { readonly into?: "available" | "pending" }) =>
  pair(platformId, m, "CREDIT", { bucket: "available" }, { account: m.account, bucket: m.into ?? "available" }, m.counterparty)

export const clearPending = (platformId: string, m: MoneyMove) =>
  pair(platformId, m, "CLEAR_PENDING", { account: m.account, bucket: "pending" }, { account: m.account, bucket: "available" })

export const debit = (platformId: string, m: CounterpartyMove) =>
  pair(platformId, m, "DEBIT", { account: m.account, bucket: "available" }, { bucket: "available" }, m.counterparty)

export const hold = (platformId: string, m: MoneyMove) =>
  pair(platformId, m, "HOLD", { account: m.account, bucket: "available" }, { account: m.account, bucket: "held" })

export const release = (platformId: string, m: MoneyMove) =>
  pair(platformId, m, "RELEASE", { account: m.account, bucket: "held" }, { account: m.account, bucket: "available" })

export const settle = (platformId: string, m: CounterpartyMove) =>
  pair(platformId, m, "SETTLE", { account: m.account, bucket: "held" }, { bucket: "available" }, m.counterparty)
