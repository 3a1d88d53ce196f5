import type { FailureReason, Funds, RefundReason, RefundStatus, TransactionStatus } from "./transaction.ts"

/**
 * One step of a transaction's outcome: after `afterMs` (from the previous step, or from the
 * transaction's creation for the first), the status, refund and funds it moves to. A step
 * changes the status or the refund, and publishes one webhook named after what changed
 * (`machines/transaction.ts`, `webhookType`).
 */
export interface PlanStep {
  readonly afterMs: number
  readonly status?: TransactionStatus
  readonly refund?: RefundStatus
  readonly refundReason?: RefundReason
  readonly failureReason?: FailureReason
  /** Where the money goes with this step (the ledger posts the difference). */
  readonly funds?: Funds
  /**
   * The transaction waits here for the platform's approve or reject; the steps after this one
   * run only after an approval.
   */
  readonly awaitApproval?: boolean
}

/** A named outcome: the steps a transaction goes through from its creation. */
export interface OutcomePlan {
  readonly name: string
  readonly steps: ReadonlyArray<PlanStep>
}
