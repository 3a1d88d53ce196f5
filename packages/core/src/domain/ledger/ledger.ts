/**
 * The double-entry journal's records (DECISIONS #170). A movement is a set of entries, each a
 * signed amount on one bucket of one ledger account, summing to zero per currency. A ledger
 * account is an internal account (its id) or an account of the world outside: the sandbox's
 * funding source, the rails money leaves by and arrives from, fees, the exchange desk. Amounts
 * are integers in the currency's smallest unit.
 */

/** Available money, money on its way in (not yet spendable), money set aside for an outgoing payment. */
export type Bucket = "available" | "pending" | "held"
export const buckets: ReadonlyArray<Bucket> = ["available", "pending", "held"]

export interface LedgerEntry {
  readonly account: string
  readonly currency: string
  readonly bucket: Bucket
  readonly amount: number
}

/** One journal line: what moved, why (`kind`), and the resource it belongs to (`reference`). */
export interface LedgerMovementRecord {
  readonly id: string
  readonly kind: string
  readonly reference?: string
  readonly entries: ReadonlyArray<LedgerEntry>
  readonly createdAt: string
}

/**
 * A ledger account's maintained balance, written in the same transaction as every movement that
 * touches it: reading a balance is one get, whatever the length of the history.
 */
export interface LedgerBalanceRecord {
  readonly id: string
  readonly currency: string
  readonly available: number
  readonly pending: number
  readonly held: number
  readonly updatedAt: string
}

/** The world's side of a movement, one account per role and currency. */
export type WorldRole = "funding" | "external" | "fees" | "fx"
export const worldAccount = (role: WorldRole, currency: string): string => `world:${role}:${currency}`

/** Internal accounts hold customers' and the platform's money: none of their buckets may go below zero. */
export const isInternalLedgerAccount = (account: string): boolean => account.startsWith("InternalAccount:")

export const emptyBalance = (id: string, currency: string, now: string): LedgerBalanceRecord => ({
  id,
  currency,
  available: 0,
  pending: 0,
  held: 0,
  updatedAt: now
})

/** `totalBalance` of the reference: what the account holds, spendable or not. */
export const totalOf = (b: Pick<LedgerBalanceRecord, "available" | "pending" | "held">): number => b.available + b.pending + b.held

/** Currencies whose entries do not sum to zero, with their sums (none: the movement balances). */
export const unbalancedCurrencies = (entries: ReadonlyArray<LedgerEntry>): ReadonlyArray<{ readonly currency: string; readonly sum: bigint }> => {
  const sums = new Map<string, bigint>()
  // BigInt: the sum of safe integers need not be one.
  for (const e of entries) sums.set(e.currency, (sums.get(e.currency) ?? 0n) + BigInt(e.amount))
  return [...sums].filter(([, sum]) => sum !== 0n).map(([currency, sum]) => ({ currency, sum }))
}
