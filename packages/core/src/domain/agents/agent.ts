import { Schema } from "effect"
import { CurrencyCode, NonEmpty, optional } from "../common.ts"
import { IdSchema } from "../ids.ts"
import { knownCurrencyCodes } from "../money/exchange-rate.ts"

/**
 * Agents (`/agents`, DECISIONS #370–#399): programs a platform lets act for one of its customers,
 * within a policy: what they may do, whether they run at once or wait for the platform's
 * approval, and how much they may move.
 */

export const AgentPermission = Schema.Literal("VIEW_TRANSACTIONS", "CREATE_TRANSFERS", "CREATE_QUOTES", "EXECUTE_QUOTES", "MANAGE_EXTERNAL_ACCOUNTS")
export type AgentPermission = typeof AgentPermission.Type

export const AgentExecutionMode = Schema.Literal("AUTO", "APPROVAL_REQUIRED")
export type AgentExecutionMode = typeof AgentExecutionMode.Type

const Amount = Schema.Number.pipe(
  Schema.int({ message: () => "must be an integer amount in the currency's smallest unit" }),
  Schema.nonNegative({ message: () => "must not be negative" })
)
const Count = Schema.Number.pipe(Schema.int({ message: () => "must be an integer" }), Schema.nonNegative({ message: () => "must not be negative" }))
const NullableAmount = Schema.NullOr(Amount)

/**
 * A policy's amounts are compared with actions converted at the sandbox's rate, so its currencies
 * must be ones the sandbox prices (DECISIONS #389): an unknown one would refuse every action.
 */
const PolicyCurrency = CurrencyCode.pipe(Schema.filter((c) => knownCurrencyCodes.includes(c) || "must be a currency the sandbox knows (GET /exchange-rates lists them)"))

export const AgentSpendingLimits = Schema.Struct({
  currency: PolicyCurrency,
  perTransactionLimit: Amount,
  dailyLimit: optional(NullableAmount),
  dailyTransactionLimit: optional(Count),
  monthlyLimit: optional(NullableAmount)
})

export const AgentSpendingLimitsUpdate = Schema.Struct({
  currency: optional(PolicyCurrency),
  perTransactionLimit: optional(Amount),
  dailyLimit: optional(NullableAmount),
  dailyTransactionLimit: optional(Count),
  monthlyLimit: optional(NullableAmount)
})

export const AgentAccountRule = Schema.Struct({
  accountId: NonEmpty(128),
  executionMode: optional(AgentExecutionMode),
  perTransactionLimit: optional(NullableAmount)
})

export const AgentAccountRestrictions = Schema.Struct({
  allowedAccountIds: optional(Schema.NullOr(Schema.Array(NonEmpty(128)))),
  accountRules: optional(Schema.Array(AgentAccountRule))
})

export const AgentApprovalThresholds = Schema.Struct({
  currency: optional(PolicyCurrency),
  amount: optional(NullableAmount)
})

export const AgentPolicy = Schema.Struct({
  permissions: Schema.Array(AgentPermission),
  defaultExecutionMode: AgentExecutionMode,
  spendingLimits: AgentSpendingLimits,
  accountRestrictions: optional(AgentAccountRestrictions),
  approvalThresholds: optional(AgentApprovalThresholds)
})
export type AgentPolicy = typeof AgentPolicy.Type

export const AgentCreate = Schema.Struct({
  name: NonEmpty(256),
  customerId: IdSchema("Customer"),
  policy: AgentPolicy
})

export const AgentUpdate = Schema.Struct({
  name: optional(NonEmpty(256)),
  isPaused: optional(Schema.Boolean)
})

export const AgentPolicyUpdate = Schema.Struct({
  permissions: optional(Schema.Array(AgentPermission)),
  defaultExecutionMode: optional(AgentExecutionMode),
  spendingLimits: optional(AgentSpendingLimitsUpdate),
  accountRestrictions: optional(AgentAccountRestrictions),
  approvalThresholds: optional(AgentApprovalThresholds)
})
export type AgentPolicyUpdate = typeof AgentPolicyUpdate.Type

export const AgentActionReject = Schema.Struct({ reason: optional(Schema.String.pipe(Schema.maxLength(1024))) })

/**
 * What an agent has spent, counted per UTC day and month (DECISIONS #377): a counter whose day or
 * month is not the current one reads as zero, so nothing has to run at midnight.
 */
export interface AgentUsageCounters {
  readonly day: string
  readonly dailyTransactionCount: number
  readonly dailySpend: number
  readonly month: string
  readonly monthlySpend: number
}

export interface AgentRecord {
  readonly id: string
  readonly name: string
  readonly customerId: string
  readonly isPaused: boolean
  /** True once a device code was redeemed: the agent holds a credential. */
  readonly isConnected: boolean
  readonly policy: AgentPolicy
  readonly usage: AgentUsageCounters
  readonly createdAt: string
  readonly updatedAt: string
}

export const agentActionStatuses = ["PENDING_APPROVAL", "APPROVED", "REJECTED", "FAILED"] as const
export type AgentActionStatus = (typeof agentActionStatuses)[number]
export type AgentActionType = "EXECUTE_QUOTE" | "TRANSFER_OUT" | "TRANSFER_IN"

export interface AgentTransferDetails {
  readonly amount: number
  readonly currency: string
  readonly sourceAccountId: string
  readonly destinationAccountId: string
}

/**
 * An action an agent submitted. `request` is what runs when it is approved: the transfer body as
 * the agent sent it, or nothing for a quote execution (the quote is `quoteId`). `spend` is its
 * amount in the policy's currency, counted in the agent's usage when it runs.
 */
export interface AgentActionRecord {
  readonly id: string
  readonly agentId: string
  readonly customerId: string
  readonly platformCustomerId: string
  readonly status: AgentActionStatus
  readonly type: AgentActionType
  readonly quoteId?: string
  readonly transferDetails?: AgentTransferDetails
  readonly request?: Readonly<Record<string, unknown>>
  readonly spend: number
  readonly transactionId?: string
  readonly rejectionReason?: string
  readonly failureReason?: string
  /** Until when a PENDING_APPROVAL action can be approved. */
  readonly expiresAt: string
  readonly createdAt: string
  readonly updatedAt: string
}

/** Which of its agent's quotes an agent created: `GET /agents/me/quotes/{id}` answers only these. */
export interface AgentQuoteRecord {
  readonly id: string
  readonly agentId: string
}

/** An agent's credential, in the server scope under the SHA-256 of its access token (DECISIONS #373). */
export interface AgentCredentialRecord {
  readonly id: string
  readonly platformId: string
  readonly agentId: string
  readonly createdAt: string
}

export { type AgentDeviceCodeRecord, deviceCodeView } from "./device-code.ts"
