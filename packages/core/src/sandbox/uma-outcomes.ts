import type { OutcomePlan, PlanStep } from "../domain/transactions/outcome-plan.ts"
import { SANDBOX_LONG_PAYMENT_MS } from "../limits.ts"
import { incomingApprovalOutcome, quoteOutcome } from "./outcomes.ts"
import type { SandboxUmaOutcome } from "./uma-receivers.ts"

/**
 * What a payment to or from one of the sandbox's UMA receivers does (spec: `success.*` succeed,
 * `pending.long.usd` is a long-pending payment, `fail.compliance.usd` a compliance failure;
 * DECISIONS #194, #198). "Long" is the quote table's long payment (about 6 minutes).
 */
const at = (afterMs: number, s: Omit<PlanStep, "afterMs">): PlanStep => ({ afterMs, ...s })

const complianceFailedPayout: OutcomePlan = {
  name: "uma-payout:FAIL_COMPLIANCE",
  steps: [
    at(0, { status: "PENDING", funds: "HELD" }),
    at(0, { status: "PROCESSING" }),
    at(0, { status: "FAILED", failureReason: "COMPLIANCE_REJECTED" }),
    at(0, { refund: "PENDING", refundReason: "TRANSACTION_FAILED" }),
    at(0, { refund: "COMPLETED", funds: "RELEASED" })
  ]
}

/** A quote paying a sandbox UMA receiver. */
export const umaPayoutOutcome = (outcome: SandboxUmaOutcome): OutcomePlan =>
  outcome === "PENDING_LONG" ? quoteOutcome("003") : outcome === "FAIL_COMPLIANCE" ? complianceFailedPayout : quoteOutcome(undefined)

/** A payment from a sandbox UMA sender (`POST /sandbox/uma/receive`): success waits for the platform's approval. */
export const umaIncomingOutcome = (outcome: SandboxUmaOutcome): OutcomePlan =>
  outcome === "PENDING_LONG"
    ? { name: "uma-incoming:PENDING_LONG", steps: [at(0, { status: "PENDING", funds: "INCOMING" }), at(SANDBOX_LONG_PAYMENT_MS, { status: "COMPLETED", funds: "RECEIVED" })] }
    : outcome === "FAIL_COMPLIANCE"
      ? { name: "uma-incoming:FAIL_COMPLIANCE", steps: [at(0, { status: "PENDING", funds: "INCOMING" }), at(0, { status: "FAILED", failureReason: "COMPLIANCE_REJECTED", funds: "RELEASED" })] }
      : incomingApprovalOutcome
