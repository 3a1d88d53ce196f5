import type { LedgerEntry } from "../ledger/ledger.ts"

/**
 * Stablecoin issuance (DECISIONS #350–#369): provider account links, registered stablecoins and
 * their mint and burn operations, as stored and as the reference shows them. Tessera is a
 * sandbox, so the provider is always BRALE and its environment SANDBOX (#351).
 */

export type ProviderAccountStatus = "ACTIVE" | "INVALID" | "REVOKED"

export interface StablecoinProviderAccountRecord {
  readonly id: string
  readonly provider: "BRALE"
  readonly providerAccountId: string
  readonly providerEnvironment: "SANDBOX"
  readonly status: ProviderAccountStatus
  /** The API client id the credentials were linked with (the secret is never kept, #352). */
  readonly apiClientId: string
  readonly lastVerifiedAt: string
  readonly createdAt: string
  readonly updatedAt: string
}

/** The reference's `StablecoinProviderAccount`, in its field order. */
export const providerAccountView = (a: StablecoinProviderAccountRecord) => ({
  id: a.id,
  provider: a.provider,
  providerAccountId: a.providerAccountId,
  providerEnvironment: a.providerEnvironment,
  status: a.status,
  lastVerifiedAt: a.lastVerifiedAt,
  createdAt: a.createdAt,
  updatedAt: a.updatedAt
})

export type IssuanceStatus = "PENDING_REVIEW" | "PROVISIONING" | "PROVISIONED" | "REJECTED" | "FAILED"
export type GridOperationsStatus = "NOT_ENABLED" | "PENDING_APPROVAL" | "ENABLING" | "ENABLED" | "DISABLED"

export interface StablecoinRecord {
  readonly id: string
  readonly name: string
  readonly symbol: string
  readonly baseCurrency: string
  readonly network: "SPARK"
  readonly decimals: number
  readonly issuanceStatus: IssuanceStatus
  readonly gridOperationsStatus: GridOperationsStatus
  readonly networkTokenIdentifier: string
  readonly provider: "BRALE"
  readonly stablecoinProviderAccountId: string
  readonly providerEnvironment: "SANDBOX"
  readonly providerTokenIdentifier: string
  readonly createdAt: string
  readonly updatedAt: string
}

/** The reference's `Stablecoin`; `currency` only once enabled for Grid operations (never, in Tessera). */
export const stablecoinView = (s: StablecoinRecord) => ({
  id: s.id,
  name: s.name,
  symbol: s.symbol,
  baseCurrency: s.baseCurrency,
  network: s.network,
  decimals: s.decimals,
  issuanceStatus: s.issuanceStatus,
  gridOperationsStatus: s.gridOperationsStatus,
  networkTokenIdentifier: s.networkTokenIdentifier,
  ...(s.gridOperationsStatus === "ENABLED" ? { currency: s.symbol } : {}),
  provider: s.provider,
  stablecoinProviderAccountId: s.stablecoinProviderAccountId,
  providerEnvironment: s.providerEnvironment,
  providerTokenIdentifier: s.providerTokenIdentifier,
  createdAt: s.createdAt,
  updatedAt: s.updatedAt
})

export type StablecoinOperationType = "MINT" | "BURN"
export type StablecoinOperationStatus = "CREATED" | "PENDING_FUNDING" | "PENDING_PROVIDER" | "PROCESSING" | "COMPLETED" | "FAILED" | "EXPIRED"

/** The reference's merged `StablecoinOperationSource`. */
export interface OperationSource {
  readonly type: "WIRE" | "ACH_DEBIT" | "SAME_DAY_ACH_DEBIT" | "EXTERNAL_ACCOUNT" | "GRID_INTERNAL_ACCOUNT" | "PROVIDER_INTERNAL_BALANCE"
  readonly externalAccountId?: string
  readonly accountId?: string
  readonly sourceTokenIdentifier?: string
  readonly cryptoNetwork?: string
}

export interface OperationDestination {
  readonly accountId: string
  readonly rail?: "WIRE" | "ACH_CREDIT" | "SAME_DAY_ACH_CREDIT" | "RTP_CREDIT"
}

/**
 * The money an operation moves (#358): an optional hold taken when it is submitted (available to
 * held on one account), and the entries posted when it completes. A failed or expired operation
 * gives the hold back, so it leaves every balance as it was.
 */
export interface OperationLedger {
  readonly hold?: { readonly account: string; readonly currency: string; readonly amount: number }
  readonly settle: ReadonlyArray<LedgerEntry>
}

export interface StablecoinOperationRecord {
  readonly id: string
  readonly stablecoinId: string
  readonly operationType: StablecoinOperationType
  readonly status: StablecoinOperationStatus
  readonly amount: string
  readonly provider: "BRALE"
  readonly providerEnvironment: "SANDBOX"
  readonly stablecoinProviderAccountId: string
  readonly source: OperationSource
  readonly fundingInstructions?: Readonly<Record<string, unknown>>
  readonly destination: OperationDestination
  readonly estimatedDelivery?: { readonly rail: string; readonly amount: string; readonly currency: string; readonly timing: string }
  readonly expiresAt?: string
  readonly failureReason?: string
  readonly description?: string
  readonly ledger: OperationLedger
  readonly createdAt: string
  readonly updatedAt: string
}

/** Brale's own words for where an operation stands, sanitized (the reference's `providerStatus`). */
const providerStatusOf: Readonly<Record<StablecoinOperationStatus, string>> = {
  CREATED: "pending",
  PENDING_FUNDING: "pending",
  PENDING_PROVIDER: "pending",
  PROCESSING: "processing",
  COMPLETED: "complete",
  FAILED: "failed",
  EXPIRED: "canceled"
}

/** The reference's `StablecoinOperation`, in its field order. */
export const operationView = (o: StablecoinOperationRecord) => ({
  id: o.id,
  stablecoinId: o.stablecoinId,
  operationType: o.operationType,
  status: o.status,
  amount: o.amount,
  provider: o.provider,
  providerEnvironment: o.providerEnvironment,
  stablecoinProviderAccountId: o.stablecoinProviderAccountId,
  source: o.source,
  ...(o.fundingInstructions === undefined ? {} : { fundingInstructions: o.fundingInstructions }),
  destination: o.destination,
  ...(o.estimatedDelivery === undefined ? {} : { estimatedDelivery: o.estimatedDelivery }),
  ...(o.expiresAt === undefined ? {} : { expiresAt: o.expiresAt }),
  providerStatus: providerStatusOf[o.status],
  ...(o.failureReason === undefined ? {} : { failureReason: o.failureReason }),
  ...(o.description === undefined ? {} : { description: o.description }),
  createdAt: o.createdAt,
  updatedAt: o.updatedAt
})

/** One step of an operation's sandbox outcome: an event of the machine, `afterMs` after the previous step. */
export type StablecoinOperationEvent =
  | { readonly _tag: "Submit"; readonly awaitFunding: boolean; readonly reserveAvailable?: number }
  | { readonly _tag: "FundsReceived" }
  | { readonly _tag: "ProviderAccepted" }
  | { readonly _tag: "Complete" }
  | { readonly _tag: "Fail"; readonly reason: string }
  | { readonly _tag: "Expire" }

export interface StablecoinPlanStep {
  readonly afterMs: number
  readonly event: StablecoinOperationEvent
}
