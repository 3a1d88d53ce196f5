import { Clock, Effect, Either, Option } from "effect"
import { InternalAccounts, LedgerBalances, LedgerMovements } from "../../domain/collections.ts"
import { makeId } from "../../domain/ids.ts"
import type { InternalAccountRecord } from "../../domain/internal-accounts/internal-account.ts"
import {
  emptyBalance,
  isInternalLedgerAccount,
  type LedgerBalanceRecord,
  type LedgerEntry,
  type LedgerMovementRecord,
  totalOf
} from "../../domain/ledger/ledger.ts"
import { referenceNotFound } from "../../domain/not-found.ts"
import { rfc3339 } from "../../domain/time.ts"
import { applyEntries } from "../../machines/ledger.ts"
import { Ids } from "../../ports/ids.ts"
import { Notifier } from "../../ports/notifier.ts"
import { Store } from "../../ports/store.ts"

/**
 * The ledger (DECISIONS #170): `post` writes one movement to the journal and the balances of
 * every account it touches, in the caller's Store transaction (a nested transaction joins the
 * outer one), so a state change and the money it moves commit together or not at all. A movement
 * the rules refuse (`machines/ledger.ts`) writes nothing.
 *
 * An internal account's record carries its balance as the reference shows it (`balance` is
 * available, `totalBalance` available + pending + held): `post` keeps it in step and publishes
 * `INTERNAL_ACCOUNT.BALANCE_UPDATED` with the account when either changes.
 */

export interface Movement {
  /** What moved the money: "SANDBOX_FUNDING", "HOLD", "SETTLE", "REFUND"... */
  readonly kind: string
  /** The resource the movement belongs to (a transaction, a quote, an account being funded). */
  readonly reference?: string
  readonly entries: ReadonlyArray<LedgerEntry>
}

export const BALANCE_UPDATED = "INTERNAL_ACCOUNT.BALANCE_UPDATED"

const loadInternalAccount = (platformId: string, id: string) =>
  Effect.gen(function* () {
    const found = yield* (yield* Store).get(InternalAccounts, platformId, id)
    return Option.isSome(found) ? found.value : yield* Effect.fail(referenceNotFound("InternalAccount", id))
  })

/** The account's currency code, as entries name it. */
export const currencyOf = (account: InternalAccountRecord): string => account.balance.currency.code

/**
 * Posts one movement: checks it against the current balances, then writes the journal line, the
 * balances and the internal accounts' records. Answers the journal line.
 */
export const post = (platformId: string, movement: Movement) =>
  Effect.flatMap(Store, (store) =>
    store.transaction(
      Effect.gen(function* () {
        const now = rfc3339(yield* Clock.currentTimeMillis)
        const touched = [...new Set(movement.entries.map((e) => e.account))]
        const before = new Map<string, LedgerBalanceRecord>()
        const accounts = new Map<string, InternalAccountRecord>()
        for (const id of touched) {
          const balance = yield* store.get(LedgerBalances, platformId, id)
          if (isInternalLedgerAccount(id)) {
            const account = yield* loadInternalAccount(platformId, id)
            accounts.set(id, account)
            // An internal account's ledger currency is its own, whatever the first entry says.
            before.set(id, Option.getOrElse(balance, () => emptyBalance(id, currencyOf(account), now)))
          } else if (Option.isSome(balance)) before.set(id, balance.value)
        }
        const after = applyEntries((id) => before.get(id), movement.entries, now)
        if (Either.isLeft(after)) return yield* Effect.fail(after.left)
        const record: LedgerMovementRecord = {
          id: makeId("LedgerMovement", yield* (yield* Ids).uuid),
          kind: movement.kind,
          ...(movement.reference === undefined ? {} : { reference: movement.reference }),
          entries: movement.entries,
          createdAt: now
        }
        yield* store.put(LedgerMovements, platformId, record)
        const notifier = yield* Notifier
        for (const balance of after.right) {
          yield* store.put(LedgerBalances, platformId, balance)
          const account = accounts.get(balance.id)
          if (account === undefined) continue
          const total = totalOf(balance)
          if (account.balance.amount === balance.available && account.totalBalance.amount === total) continue
          const updated: InternalAccountRecord = {
            ...account,
            balance: { amount: balance.available, currency: account.balance.currency },
            totalBalance: { amount: total, currency: account.totalBalance.currency },
            updatedAt: now
          }
          yield* store.put(InternalAccounts, platformId, updated)
          yield* notifier.publish(platformId, { type: BALANCE_UPDATED, resourceId: updated.id, data: updated })
        }
        return record
      })
    )
  )

/** An account's balance by buckets: one read (two for an internal account never moved). */
export const balanceOf = (platformId: string, accountId: string) =>
  Effect.gen(function* () {
    const store = yield* Store
    const found = yield* store.get(LedgerBalances, platformId, accountId)
    const balance = Option.isSome(found)
      ? found.value
      : isInternalLedgerAccount(accountId)
        ? emptyBalance(accountId, currencyOf(yield* loadInternalAccount(platformId, accountId)), "")
        : undefined
    if (balance === undefined) return { accountId, currency: undefined, available: 0, pending: 0, held: 0, total: 0 }
    return { accountId, currency: balance.currency as string | undefined, available: balance.available, pending: balance.pending, held: balance.held, total: totalOf(balance) }
  })

/** The journal lines of one resource (a transaction's hold, settlement and refund), oldest first. */
export const movementsOf = (platformId: string, reference: string) =>
  Effect.flatMap(Store, (store) => store.findBy(LedgerMovements, platformId, "reference", reference))
