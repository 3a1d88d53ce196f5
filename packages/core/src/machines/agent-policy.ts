import { Either } from "effect"
import type { AgentActionType, AgentPermission, AgentPolicy, AgentPolicyUpdate, AgentRecord, AgentUsageCounters } from "../domain/agents/agent.ts"
import { Forbidden } from "../domain/errors.ts"
import { rfc3339 } from "../domain/time.ts"

/**
 * An agent's policy, pure (DECISIONS #374–#377): given an action the agent asks for, it answers
 * whether the action runs at once, waits for the platform's approval, or is refused (403
 * FORBIDDEN with the reason). The operation converts amounts beforehand; this module reads no
 * clock and no store.
 */

/** The action asked for, with its amount in the policy's currency and in the threshold's. */
export interface PolicyQuestion {
  readonly type: AgentActionType
  /** In the smallest unit of `policy.spendingLimits.currency`. */
  readonly spend: number
  /** In the smallest unit of `policy.approvalThresholds.currency` (the same as `spend` when it has none). */
  readonly thresholdSpend: number
  /** The customer's internal account the action moves money from or to. */
  readonly internalAccountId: string
}

export type PolicyDecision = "RUN" | "APPROVAL"

/** The permission each action type needs. */
export const permissionOf: Readonly<Record<AgentActionType, AgentPermission>> = {
  EXECUTE_QUOTE: "EXECUTE_QUOTES",
  TRANSFER_IN: "CREATE_TRANSFERS",
  TRANSFER_OUT: "CREATE_TRANSFERS"
}

const refused = (reason: string, message: string, details: Readonly<Record<string, unknown>> = {}) =>
  new Forbidden({ message, details: { reason, ...details } })

/** 403 unless the policy grants `permission`. */
export const requirePermission = (agent: Pick<AgentRecord, "policy">, permission: AgentPermission): Either.Either<void, Forbidden> =>
  agent.policy.permissions.includes(permission)
    ? Either.void
    : Either.left(refused("AGENT_PERMISSION_MISSING", `The agent's policy does not grant ${permission}`, { requiredPermission: permission }))

/** 403 when the agent is paused: a paused agent initiates nothing (it can still read). */
export const requireActive = (agent: Pick<AgentRecord, "isPaused">): Either.Either<void, Forbidden> =>
  agent.isPaused ? Either.left(refused("AGENT_PAUSED", "The agent is paused")) : Either.void

const dayOf = (now: number) => rfc3339(now).slice(0, 10)
const monthOf = (now: number) => rfc3339(now).slice(0, 7)

/** The counters as they stand at `now`: a past day's or month's spend reads as zero. */
export const usageAt = (u: AgentUsageCounters, now: number): AgentUsageCounters => {
  const day = dayOf(now)
  const month = monthOf(now)
  return {
    day,
    dailyTransactionCount: u.day === day ? u.dailyTransactionCount : 0,
    dailySpend: u.day === day ? u.dailySpend : 0,
    month,
    monthlySpend: u.month === month ? u.monthlySpend : 0
  }
}

export const emptyUsage = (now: number): AgentUsageCounters => ({ day: dayOf(now), dailyTransactionCount: 0, dailySpend: 0, month: monthOf(now), monthlySpend: 0 })

/** The counters after an action of `spend` ran at `now`. */
export const countSpend = (u: AgentUsageCounters, spend: number, now: number): AgentUsageCounters => {
  const at = usageAt(u, now)
  return { ...at, dailyTransactionCount: at.dailyTransactionCount + 1, dailySpend: at.dailySpend + spend, monthlySpend: at.monthlySpend + spend }
}

/** The reference's `AgentUsage`: the counters now, with the day and month they reset. */
export const usageView = (u: AgentUsageCounters, now: number) => {
  const at = usageAt(u, now)
  const d = new Date(now)
  const tomorrow = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1))
  const nextMonth = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1))
  return {
    dailyTransactionCount: at.dailyTransactionCount,
    dailySpend: at.dailySpend,
    dailyResetDate: tomorrow.toISOString().slice(0, 10),
    monthlySpend: at.monthlySpend,
    monthlyResetMonth: nextMonth.toISOString().slice(0, 7)
  }
}

/**
 * What the agent must still be for an action of `type` on `internalAccountId` to run: active,
 * granted the action's permission, allowed the account. Asked when the action is submitted and
 * again when the platform approves it (DECISIONS #394).
 */
export const mayAct = (agent: Pick<AgentRecord, "isPaused" | "policy">, type: AgentActionType, internalAccountId: string): Either.Either<void, Forbidden> => {
  const active = requireActive(agent)
  if (Either.isLeft(active)) return active
  const permitted = requirePermission(agent, permissionOf[type])
  if (Either.isLeft(permitted)) return permitted
  const allowed = agent.policy.accountRestrictions?.allowedAccountIds
  if (allowed !== undefined && allowed !== null && !allowed.includes(internalAccountId))
    return Either.left(refused("AGENT_ACCOUNT_NOT_ALLOWED", `The agent's policy does not allow account ${internalAccountId}`, { accountId: internalAccountId }))
  return Either.void
}

/**
 * The policy's answer, in order: paused, permission, allowed accounts, the per-transaction limit
 * (an account rule's own, else the policy's), the daily count, the daily and monthly spend
 * (refusals); then the execution mode (an account rule's, else the default) and the approval
 * threshold (a spend above it waits for approval even in AUTO).
 */
export const decideAction = (agent: Pick<AgentRecord, "isPaused" | "policy" | "usage">, q: PolicyQuestion, now: number): Either.Either<PolicyDecision, Forbidden> => {
  const may = mayAct(agent, q.type, q.internalAccountId)
  if (Either.isLeft(may)) return Either.left(may.left)
  const policy = agent.policy
  const rule = policy.accountRestrictions?.accountRules?.find((r) => r.accountId === q.internalAccountId)
  const limits = policy.spendingLimits
  const perTransaction = rule?.perTransactionLimit ?? limits.perTransactionLimit
  if (q.spend > perTransaction)
    return Either.left(refused("PER_TRANSACTION_LIMIT_EXCEEDED", `The amount exceeds the agent's per-transaction limit of ${perTransaction} ${limits.currency}`, { limit: perTransaction, currency: limits.currency }))
  const usage = usageAt(agent.usage, now)
  if (limits.dailyTransactionLimit !== undefined && usage.dailyTransactionCount + 1 > limits.dailyTransactionLimit)
    return Either.left(refused("DAILY_TRANSACTION_LIMIT_EXCEEDED", `The agent has reached its ${limits.dailyTransactionLimit} transactions for today`, { limit: limits.dailyTransactionLimit }))
  if (limits.dailyLimit !== undefined && limits.dailyLimit !== null && usage.dailySpend + q.spend > limits.dailyLimit)
    return Either.left(refused("DAILY_LIMIT_EXCEEDED", `The amount would exceed the agent's daily limit of ${limits.dailyLimit} ${limits.currency}`, { limit: limits.dailyLimit, currency: limits.currency }))
  if (limits.monthlyLimit !== undefined && limits.monthlyLimit !== null && usage.monthlySpend + q.spend > limits.monthlyLimit)
    return Either.left(refused("MONTHLY_LIMIT_EXCEEDED", `The amount would exceed the agent's monthly limit of ${limits.monthlyLimit} ${limits.currency}`, { limit: limits.monthlyLimit, currency: limits.currency }))
  const mode = rule?.executionMode ?? policy.defaultExecutionMode
  if (mode === "APPROVAL_REQUIRED") return Either.right("APPROVAL")
  const threshold = policy.approvalThresholds?.amount
  if (threshold !== undefined && threshold !== null && q.thresholdSpend > threshold) return Either.right("APPROVAL")
  return Either.right("RUN")
}

/**
 * A policy after a partial update: given fields replace the stored ones, `spendingLimits` field
 * by field (a `null` limit removes it), the others whole.
 */
export const updatedPolicy = (policy: AgentPolicy, u: AgentPolicyUpdate): AgentPolicy => ({
  ...policy,
  ...(u.permissions === undefined ? {} : { permissions: u.permissions }),
  ...(u.defaultExecutionMode === undefined ? {} : { defaultExecutionMode: u.defaultExecutionMode }),
  ...(u.spendingLimits === undefined ? {} : { spendingLimits: { ...policy.spendingLimits, ...u.spendingLimits } }),
  ...(u.accountRestrictions === undefined ? {} : { accountRestrictions: u.accountRestrictions }),
  ...(u.approvalThresholds === undefined ? {} : { approvalThresholds: u.approvalThresholds })
})
