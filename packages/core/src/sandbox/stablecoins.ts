import type { StablecoinPlanStep } from "../domain/stablecoins/records.ts"
import { STABLECOIN_FUNDING_WINDOW_MS, STABLECOIN_FUNDS_ARRIVAL_MS, STABLECOIN_PROVIDER_STEP_MS } from "../limits.ts"

/**
 * The sandbox language of stablecoin issuance (DECISIONS #361, #362), each by the last three
 * characters of a value, as the rest of the sandbox: what the provider says of a link's
 * credentials (by `apiClientId`), and what happens to a mint or burn (by its amount in whole
 * cents of the base currency).
 */

/** What the sandbox provider does with credentials, by the suffix of `apiClientId`. */
export type LinkOutcome = "INVALID" | "REVOKED_LATER" | "INVALID_LATER" | "ACTIVE"

export const linkSuffixTable: ReadonlyArray<{ readonly suffix: string; readonly outcome: LinkOutcome }> = [
  // The credentials fail verification: 400 STABLECOIN_PROVIDER_ACCOUNT_INVALID, nothing linked.
  { suffix: "002", outcome: "INVALID" },
  // Linked ACTIVE; the provider revokes them, or they stop verifying, 30 s later.
  { suffix: "003", outcome: "REVOKED_LATER" },
  { suffix: "004", outcome: "INVALID_LATER" }
]

export const linkOutcome = (apiClientId: string): LinkOutcome => linkSuffixTable.find((r) => r.suffix === apiClientId.slice(-3))?.outcome ?? "ACTIVE"

/** What happens to a mint or burn, by the last three digits of its amount in whole cents. */
export type OperationOutcome = "FAILS" | "NEVER_FUNDED" | "COMPLETES"

export const operationSuffixTable: ReadonlyArray<{ readonly suffix: string; readonly outcome: OperationOutcome }> = [
  // The provider accepts it, then fails it: FAILED with PROVIDER_TRANSFER_FAILED, the hold given back.
  { suffix: "002", outcome: "FAILS" },
  // The wire or deposit it waits for never comes: EXPIRED after 7 days (an operation that waits for nothing completes).
  { suffix: "003", outcome: "NEVER_FUNDED" }
]

export const operationOutcome = (cents: bigint): OperationOutcome =>
  operationSuffixTable.find((r) => r.suffix === String(cents % 1000n).padStart(3, "0"))?.outcome ?? "COMPLETES"

export const PROVIDER_FAILURE_REASON = "PROVIDER_TRANSFER_FAILED"

/**
 * The steps of an operation from its creation: submitted at once, then the money it waits for
 * arrives (or its window closes), the provider accepts it and completes or fails it.
 */
export const operationPlan = (awaitFunding: boolean, outcome: OperationOutcome, reserveAvailable?: number): ReadonlyArray<StablecoinPlanStep> => {
  const submit: StablecoinPlanStep = { afterMs: 0, event: { _tag: "Submit", awaitFunding, ...(reserveAvailable === undefined ? {} : { reserveAvailable }) } }
  const end: StablecoinPlanStep =
    outcome === "FAILS"
      ? { afterMs: STABLECOIN_PROVIDER_STEP_MS, event: { _tag: "Fail", reason: PROVIDER_FAILURE_REASON } }
      : { afterMs: STABLECOIN_PROVIDER_STEP_MS, event: { _tag: "Complete" } }
  if (!awaitFunding) return [submit, { afterMs: STABLECOIN_PROVIDER_STEP_MS, event: { _tag: "ProviderAccepted" } }, end]
  if (outcome === "NEVER_FUNDED") return [submit, { afterMs: STABLECOIN_FUNDING_WINDOW_MS, event: { _tag: "Expire" } }]
  return [submit, { afterMs: STABLECOIN_FUNDS_ARRIVAL_MS, event: { _tag: "FundsReceived" } }, end]
}

/** Every sandbox stablecoin has the reference's example shape: 6 decimals, backed by US dollars. */
export const SANDBOX_STABLECOIN_DECIMALS = 6
export const SANDBOX_STABLECOIN_BASE_CURRENCY = "USD"

/** The ledger's currency for a stablecoin's tokens: its symbol (unique per platform), marked so no real currency is meant. */
export const tokenLedgerCurrency = (symbol: string): string => `SC:${symbol}`

/** The display name the sandbox provider reports for a token: `ACME` is "Acme Dollar". */
export const stablecoinName = (symbol: string): string => `${symbol.charAt(0)}${symbol.slice(1).toLowerCase()} Dollar`

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

/**
 * The provider account id credentials expose when none is given: 27 base-62 characters (Brale's
 * KSUID shape) from a digest of the client id, so the same credentials name the same account.
 */
export const providerAccountIdFrom = (digestHex: string): string => {
  let n = BigInt(`0x${digestHex}`)
  let out = ""
  for (let i = 0; i < 27; i++) {
    out = BASE62[Number(n % 62n)]! + out
    n /= 62n
  }
  return out
}

/** Wire instructions of a wire-funded mint: the sandbox provider's bank, the amount, a reference for matching. */
export const wireInstructions = (operationId: string, cents: bigint, currency: string) => ({
  rail: "WIRE",
  bankName: "Tessera Sandbox Bank",
  beneficiaryName: "Brale Sandbox Issuance",
  accountNumber: "9900000002",
  routingNumber: "021000021",
  reference: `SCM-${operationId.slice(operationId.indexOf(":") + 1, operationId.indexOf(":") + 9).toUpperCase()}`,
  amount: cents.toString(),
  currency
})

/** Deposit instructions of a burn from an external wallet: the provider's Spark address for this operation. */
export const depositInstructions = (address: string, symbol: string) => ({ rail: "SPARK", network: "SPARK", address, valueType: symbol })

/** The static rail timing a burn's payout shows (guidance, not a promise). */
export const payoutTiming: Readonly<Record<string, string>> = {
  WIRE: "same business day",
  ACH_CREDIT: "1-3 business days",
  SAME_DAY_ACH_CREDIT: "same business day",
  RTP_CREDIT: "within minutes"
}
