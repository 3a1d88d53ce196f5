import { Either } from "effect"
import type { DomainError } from "../domain/envelope.ts"
import { AmountOutOfRange, InternalError, InvalidAmount, InvalidCurrency, InvalidStateTransition } from "../domain/errors.ts"
import { type Bucket, emptyBalance, isInternalLedgerAccount, type LedgerBalanceRecord, type LedgerEntry, unbalancedCurrencies } from "../domain/ledger/ledger.ts"

/**
 * The ledger's rules, pure (DECISIONS #170, #171): a movement is accepted whole or refused whole,
 * before anything is written. Given the current balances of the accounts it touches, it answers
 * their balances after it, or why it cannot happen:
 * - every amount is a safe integer (the reference's int64 amounts, held in JavaScript numbers);
 * - the entries sum to zero per currency (money is moved, never made or lost);
 * - each entry's currency is its account's currency;
 * - no bucket of an internal account goes below zero (spending more than is available is
 *   400 INVALID_AMOUNT with `details.reason` INSUFFICIENT_BALANCE);
 * - no balance leaves the safe-integer range.
 */

const safe = (n: number): boolean => Number.isSafeInteger(n)

export const insufficientBalance = (account: string, currency: string, available: number, requested: number): InvalidAmount =>
  new InvalidAmount({
    message: `Insufficient balance: internal account ${account} has ${available} ${currency} available, ${requested} needed`,
    details: { reason: "INSUFFICIENT_BALANCE", accountId: account, currency, available, requested }
  })

/** Checks the entries alone: amounts, and the zero sum per currency. */
export const checkEntries = (entries: ReadonlyArray<LedgerEntry>): Either.Either<void, DomainError> => {
  if (entries.length === 0) return Either.left(new InternalError({ message: "A ledger movement needs at least one entry" }))
  for (const e of entries)
    if (!safe(e.amount))
      return Either.left(
        new AmountOutOfRange({
          message: `Amount ${e.amount} is not an integer of at most ${Number.MAX_SAFE_INTEGER} in the currency's smallest unit`,
          details: { amount: e.amount, currency: e.currency, max: Number.MAX_SAFE_INTEGER }
        })
      )
  const unbalanced = unbalancedCurrencies(entries)[0]
  if (unbalanced !== undefined)
    return Either.left(new InternalError({ message: `Unbalanced ledger movement: ${unbalanced.currency} entries sum to ${unbalanced.sum}` }))
  return Either.right(undefined)
}

/**
 * The balances after `entries`, one per account touched, in first-touched order. `current` gives
 * an account's balance before (none: a fresh account at zero in the entry's currency).
 */
export const applyEntries = (
  current: (account: string) => LedgerBalanceRecord | undefined,
  entries: ReadonlyArray<LedgerEntry>,
  now: string
): Either.Either<ReadonlyArray<LedgerBalanceRecord>, DomainError> => {
  const checked = checkEntries(entries)
  if (Either.isLeft(checked)) return Either.left(checked.left)
  const after = new Map<string, { -readonly [K in keyof LedgerBalanceRecord]: LedgerBalanceRecord[K] }>()
  for (const e of entries) {
    let b = after.get(e.account)
    if (b === undefined) {
      b = { ...(current(e.account) ?? emptyBalance(e.account, e.currency, now)), updatedAt: now }
      after.set(e.account, b)
    }
    if (b.currency !== e.currency)
      return Either.left(
        new InvalidCurrency({
          message: `Account ${e.account} holds ${b.currency}, not ${e.currency}`,
          details: { accountId: e.account, currency: e.currency, accountCurrency: b.currency }
        })
      )
    b[e.bucket] += e.amount
  }
  for (const b of after.values()) {
    for (const bucket of ["available", "pending", "held"] as ReadonlyArray<Bucket>) {
      if (!safe(b[bucket]))
        return Either.left(
          new AmountOutOfRange({
            message: `The ${bucket} balance of ${b.id} would leave the range of exact integers`,
            details: { accountId: b.id, currency: b.currency, max: Number.MAX_SAFE_INTEGER }
          })
        )
      if (b[bucket] >= 0 || !isInternalLedgerAccount(b.id)) continue
      const before = current(b.id)?.[bucket] ?? 0
      const requested = before - b[bucket]
      if (bucket === "available") return Either.left(insufficientBalance(b.id, b.currency, before, requested))
      return Either.left(
        new InvalidStateTransition({
          message: `Internal account ${b.id} has ${before} ${b.currency} ${bucket}, ${requested} cannot leave it`,
          details: { accountId: b.id, bucket, [bucket]: before, requested }
        })
      )
    }
  }
  return Either.right([...after.values()])
}
