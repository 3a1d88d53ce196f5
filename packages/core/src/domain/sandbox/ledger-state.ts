import { Schema } from "effect"
import { DateTimeString, NonEmpty, optional } from "../common.ts"
import { InternalAccounts, LedgerBalances, LedgerMovements } from "../collections.ts"
import type { FieldError } from "../field-errors.ts"
import { IdSchema } from "../ids.ts"
import { buckets, isInternalLedgerAccount, unbalancedCurrencies, type LedgerEntry } from "../ledger/ledger.ts"
import { lazily } from "./lazily.ts"

/**
 * The ledger in a state document (DECISIONS #172): the journal and the maintained balances travel
 * with the platform's other records, and an imported document must be a ledger the engine could
 * have written: every movement sums to zero per currency, every balance is the sum of its
 * account's entries, no internal account holds less than nothing, and each internal account's
 * `balance`/`totalBalance` is its ledger balance.
 */

export const ledgerStates = lazily(() => {
  const Amount = Schema.Number.pipe(Schema.int(), Schema.between(-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER))
  const Bucket = Schema.Literal("available", "pending", "held")

  const LedgerMovementState = Schema.Struct({
    id: IdSchema("LedgerMovement"),
    kind: NonEmpty(64),
    reference: optional(Schema.String),
    entries: Schema.NonEmptyArray(Schema.Struct({ account: NonEmpty(256), currency: NonEmpty(16), bucket: Bucket, amount: Amount })),
    createdAt: DateTimeString
  })

  const LedgerBalanceState = Schema.Struct({
    id: NonEmpty(256),
    currency: NonEmpty(16),
    available: Amount,
    pending: Amount,
    held: Amount,
    updatedAt: DateTimeString
  })
  return { LedgerMovementState, LedgerBalanceState }
})

type Rec = Readonly<Record<string, unknown>>
type Sums = { available: bigint; pending: bigint; held: bigint; currency: string }

/** Problems of the document's ledger as a whole; its records each passed their schema. */
export const ledgerProblems = (valid: (collection: string) => ReadonlyArray<{ readonly at: ReadonlyArray<string>; readonly record: Rec }>): Array<FieldError> => {
  const problems: Array<FieldError> = []
  const sums = new Map<string, Sums>()
  for (const { at, record } of valid(LedgerMovements.name)) {
    const entries = record["entries"] as ReadonlyArray<LedgerEntry>
    for (const u of unbalancedCurrencies(entries))
      problems.push({ field: [...at, "entries"].join("."), message: `must sum to zero per currency: ${u.currency} sums to ${u.sum}` })
    for (const e of entries) {
      const s = sums.get(e.account) ?? { available: 0n, pending: 0n, held: 0n, currency: e.currency }
      s[e.bucket] += BigInt(e.amount)
      sums.set(e.account, s)
    }
  }
  const balances = new Map<string, Rec>()
  for (const { at, record } of valid(LedgerBalances.name)) {
    const id = record["id"] as string
    balances.set(id, record)
    const s = sums.get(id)
    for (const b of buckets) {
      const journal = s?.[b] ?? 0n
      if (BigInt(record[b] as number) !== journal)
        problems.push({ field: [...at, b].join("."), message: `must be ${journal}, the sum of the journal's ${b} entries of ${id}` })
      else if (isInternalLedgerAccount(id) && (record[b] as number) < 0) problems.push({ field: [...at, b].join("."), message: "must not be negative on an internal account" })
    }
    if (s !== undefined && s.currency !== record["currency"]) problems.push({ field: [...at, "currency"].join("."), message: `must be ${s.currency}, the currency of its entries` })
  }
  const internal = new Set(valid(InternalAccounts.name).map(({ record }) => record["id"]))
  for (const [id] of balances)
    if (isInternalLedgerAccount(id) && !internal.has(id))
      problems.push({ field: `collections.${LedgerBalances.name}`, message: `holds a balance of ${id}, which must be a record of collections.${InternalAccounts.name}` })
  for (const [account] of sums)
    if (!balances.has(account)) problems.push({ field: `collections.${LedgerBalances.name}`, message: `must hold the balance of ${account}, which the journal moves` })
  for (const { at, record } of valid(InternalAccounts.name)) {
    const ledger = balances.get(record["id"] as string)
    const currency = (record["balance"] as { readonly currency: { readonly code: string } }).currency.code
    const available = (ledger?.["available"] as number | undefined) ?? 0
    const total = ledger === undefined ? 0 : (ledger["available"] as number) + (ledger["pending"] as number) + (ledger["held"] as number)
    if ((record["balance"] as { readonly amount: number }).amount !== available)
      problems.push({ field: [...at, "balance", "amount"].join("."), message: `must be ${available}, the account's available ledger balance` })
    if ((record["totalBalance"] as { readonly amount: number }).amount !== total)
      problems.push({ field: [...at, "totalBalance", "amount"].join("."), message: `must be ${total}, the account's total ledger balance` })
    if (ledger !== undefined && ledger["currency"] !== currency)
      problems.push({ field: [...at, "balance", "currency", "code"].join("."), message: `must be ${ledger["currency"] as string}, the currency of its ledger balance` })
  }
  return problems
}

export const ledgerStateCollections = [
  { collection: LedgerBalances, schema: () => ledgerStates().LedgerBalanceState },
  { collection: LedgerMovements, schema: () => ledgerStates().LedgerMovementState }
]

