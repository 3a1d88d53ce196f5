import type { OutcomePlan, PlanStep } from "../domain/transactions/outcome-plan.ts"
import type { TransactionType } from "../domain/transactions/transaction.ts"
import { SANDBOX_LONG_PAYMENT_MS, SANDBOX_PENDING_FAIL_MS, SANDBOX_RETURN_AFTER_MS } from "../limits.ts"

/**
 * The spec's two outcome tables ("Sandbox scenarios") as data: what a transaction goes through,
 * step by step, keyed by the last three digits of the external account's primary identifier
 * (`sandbox/beneficiary.ts`, stored on the account as `sandboxTransferSuffix` for 002–005; quote
 * destinations read 002–007 the same way). Status sequences follow the design notes §3.3–3.4
 * and DECISIONS #181–#183. A step of `afterMs` 0 happens in the request that starts the
 * transaction, after its answer's state; a later one is a due step on the engine's clock.
 */

const at = (afterMs: number, s: Omit<PlanStep, "afterMs">): PlanStep => ({ afterMs, ...s })

// Steps of an OUTGOING transaction whose money is held on an internal account until it leaves.
const pendingHeld = at(0, { status: "PENDING", funds: "HELD" })
const processing = at(0, { status: "PROCESSING" })
const sent = (afterMs = 0) => at(afterMs, { status: "COMPLETED", funds: "SENT" })
const refunded = (reason: "TRANSACTION_FAILED" | "USER_CANCELLATION", back: "RELEASED" | "RETURNED"): ReadonlyArray<PlanStep> => [
  at(0, { refund: "PENDING", refundReason: reason }),
  at(0, { refund: "COMPLETED", funds: back })
]

/** Transfer-out (OUTGOING, from an internal account) by the destination's suffix. */
const transferOut: Readonly<Record<string, ReadonlyArray<PlanStep>>> = {
  // Insufficient funds at the receiving bank, account closed or invalid: failed without processing.
  "002": [pendingHeld, at(0, { status: "FAILED", failureReason: "LIMIT_EXCEEDED", funds: "RELEASED" })],
  "003": [pendingHeld, at(0, { status: "FAILED", failureReason: "ACCOUNT_INVALID", funds: "RELEASED" })],
  // Rejected by the bank once it had the payment.
  "004": [pendingHeld, processing, at(0, { status: "FAILED", failureReason: "ACCOUNT_CANNOT_RECEIVE", funds: "RELEASED" })],
  "005": [pendingHeld, at(SANDBOX_PENDING_FAIL_MS, { status: "FAILED", failureReason: "PAYOUT_RETURNED", funds: "RELEASED" })],
  other: [pendingHeld, processing, sent()]
}

/** Transfer-in (INCOMING, pulled from an external account): pending credit until it arrives. */
const pendingIn = at(0, { status: "PENDING", funds: "INCOMING" })
const collectionFailed = (afterMs: number) => at(afterMs, { status: "FAILED", failureReason: "COLLECTION_FAILED", funds: "RELEASED" })
const transferIn: Readonly<Record<string, ReadonlyArray<PlanStep>>> = {
  "002": [pendingIn, collectionFailed(0)],
  "003": [pendingIn, collectionFailed(0)],
  "004": [pendingIn, at(0, { status: "PROCESSING" }), collectionFailed(0)],
  "005": [pendingIn, collectionFailed(SANDBOX_PENDING_FAIL_MS)],
  other: [pendingIn, at(0, { status: "COMPLETED", funds: "RECEIVED" })]
}

/** The transfer outcome for an external account's suffix (002–005; anything else succeeds). */
export const transferOutcome = (type: TransactionType, suffix: string | undefined): OutcomePlan => {
  const table = type === "OUTGOING" ? transferOut : transferIn
  const key = suffix !== undefined && suffix in table ? suffix : "other"
  return { name: `transfer-${type === "OUTGOING" ? "out" : "in"}:${key}`, steps: table[key]! }
}

/** A quote's payout (OUTGOING) by the destination account's suffix, from the moment it is executed. */
const quotePayout: Readonly<Record<string, ReadonlyArray<PlanStep>>> = {
  "002": [pendingHeld, processing, at(0, { status: "FAILED", failureReason: "QUOTE_EXECUTION_FAILED" }), ...refunded("TRANSACTION_FAILED", "RELEASED")],
  "003": [pendingHeld, processing, sent(SANDBOX_LONG_PAYMENT_MS)],
  "004": [pendingHeld, processing, at(0, { status: "FAILED", failureReason: "ACCOUNT_CANNOT_RECEIVE" }), ...refunded("TRANSACTION_FAILED", "RELEASED")],
  "005": [
    pendingHeld,
    processing,
    sent(),
    at(SANDBOX_RETURN_AFTER_MS, { status: "FAILED", failureReason: "PAYOUT_RETURNED" }),
    ...refunded("TRANSACTION_FAILED", "RETURNED")
  ],
  // The lifecycle document's manual cancellation: refunded while processing, then COMPLETED.
  "006": [pendingHeld, processing, ...refunded("USER_CANCELLATION", "RELEASED"), at(0, { status: "COMPLETED" })],
  // Neither the payout nor its refund went through: the money is gone.
  "007": [
    pendingHeld,
    processing,
    at(0, { status: "FAILED", failureReason: "ACCOUNT_CANNOT_RECEIVE" }),
    at(0, { refund: "PENDING", refundReason: "TRANSACTION_FAILED" }),
    at(0, { refund: "FAILED", funds: "SENT" })
  ],
  other: [pendingHeld, processing, sent()]
}

export const QUOTE_OUTCOME_SUFFIXES: ReadonlyArray<string> = ["002", "003", "004", "005", "006", "007"]

/** The outcome of an executed quote by its destination's suffix (002–007; anything else succeeds). */
export const quoteOutcome = (suffix: string | undefined): OutcomePlan => {
  const key = suffix !== undefined && suffix in quotePayout ? suffix : "other"
  return { name: `quote:${key}`, steps: quotePayout[key]! }
}

/**
 * An incoming payment the platform must approve (sandbox UMA receive): PENDING with a pending
 * credit until `POST /transactions/{id}/approve` (then COMPLETED, credited) or `/reject`.
 */
export const incomingApprovalOutcome: OutcomePlan = {
  name: "incoming:approval",
  steps: [at(0, { status: "PENDING", funds: "INCOMING", awaitApproval: true }), at(0, { status: "COMPLETED", funds: "RECEIVED" })]
}
