import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { Either } from "effect"
import { countSpend, decideAction, emptyUsage, updatedPolicy, usageAt, usageView } from "../../packages/core/src/machines/agent-policy.ts"
import type { AgentPermission, AgentPolicy, AgentRecord } from "../../packages/core/src/domain/agents/agent.ts"

const T0 = Date.UTC(2026, 2, 31, 23, 0)
const ACCOUNT = "InternalAccount:00000000-0000-4000-8000-000000000001"
const OTHER = "InternalAccount:00000000-0000-4000-8000-000000000002"
const permissions: ReadonlyArray<AgentPermission> = ["VIEW_TRANSACTIONS", "CREATE_TRANSFERS", "CREATE_QUOTES", "EXECUTE_QUOTES", "MANAGE_EXTERNAL_ACCOUNTS"]

const mode = fc.constantFrom("AUTO" as const, "APPROVAL_REQUIRED" as const)
const amount = fc.integer({ min: 0, max: 10_000 })
const policy: fc.Arbitrary<AgentPolicy> = fc.record({
  permissions: fc.subarray([...permissions]),
  defaultExecutionMode: mode,
  spendingLimits: fc.record({ currency: fc.constant("USD"), perTransactionLimit: amount, dailyLimit: fc.option(amount, { nil: undefined }), dailyTransactionLimit: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }), monthlyLimit: fc.option(amount, { nil: null }) }),
  accountRestrictions: fc.option(
    fc.record({
      allowedAccountIds: fc.option(fc.subarray([ACCOUNT, OTHER]), { nil: null }),
      accountRules: fc.array(fc.record({ accountId: fc.constantFrom(ACCOUNT, OTHER), executionMode: fc.option(mode, { nil: undefined }), perTransactionLimit: fc.option(amount, { nil: null }) }, { requiredKeys: ["accountId"] }), { maxLength: 2 })
    }),
    { nil: undefined }
  ),
  approvalThresholds: fc.option(fc.record({ currency: fc.constant("USD"), amount: fc.option(amount, { nil: null }) }), { nil: undefined })
}, { requiredKeys: ["permissions", "defaultExecutionMode", "spendingLimits"] }) as fc.Arbitrary<AgentPolicy>

const agent = fc.record({ isPaused: fc.boolean(), policy, spent: fc.integer({ min: 0, max: 20_000 }), count: fc.integer({ min: 0, max: 6 }) }).map(
  ({ isPaused, policy, spent, count }): Pick<AgentRecord, "isPaused" | "policy" | "usage"> => ({ isPaused, policy, usage: { ...emptyUsage(T0), dailySpend: spent, monthlySpend: spent, dailyTransactionCount: count } })
)
const question = fc.record({ type: fc.constantFrom("EXECUTE_QUOTE" as const, "TRANSFER_OUT" as const, "TRANSFER_IN" as const), spend: amount, internalAccountId: fc.constantFrom(ACCOUNT, OTHER) }).map((q) => ({ ...q, thresholdSpend: q.spend }))

describe("agent policy", () => {
  it("property: an action runs at once only when nothing asks for approval, and is refused whenever a rule is broken", () => {
    fc.assert(
      fc.property(agent, question, (a, q) => {
        const d = decideAction(a, q, T0)
        const p = a.policy
        const rule = p.accountRestrictions?.accountRules?.find((r) => r.accountId === q.internalAccountId)
        const needed = q.type === "EXECUTE_QUOTE" ? "EXECUTE_QUOTES" : "CREATE_TRANSFERS"
        const allowed = p.accountRestrictions?.allowedAccountIds
        const broken =
          a.isPaused ||
          !p.permissions.includes(needed) ||
          (allowed != null && !allowed.includes(q.internalAccountId)) ||
          q.spend > (rule?.perTransactionLimit ?? p.spendingLimits.perTransactionLimit) ||
          (p.spendingLimits.dailyTransactionLimit !== undefined && a.usage.dailyTransactionCount + 1 > p.spendingLimits.dailyTransactionLimit) ||
          (p.spendingLimits.dailyLimit != null && a.usage.dailySpend + q.spend > p.spendingLimits.dailyLimit) ||
          (p.spendingLimits.monthlyLimit != null && a.usage.monthlySpend + q.spend > p.spendingLimits.monthlyLimit)
        expect(Either.isLeft(d)).toBe(broken)
        if (Either.isLeft(d)) {
          expect([d.left.status, d.left._tag]).toEqual([403, "FORBIDDEN"])
          return
        }
        const needsApproval = (rule?.executionMode ?? p.defaultExecutionMode) === "APPROVAL_REQUIRED" || (p.approvalThresholds?.amount != null && q.thresholdSpend > p.approvalThresholds.amount)
        expect(d.right).toBe(needsApproval ? "APPROVAL" : "RUN")
      })
    )
  })

  it("counts spend per UTC day and month: a new day starts the daily counters at zero, a new month the monthly one", () => {
    const u = countSpend(countSpend(emptyUsage(T0), 300, T0), 200, T0 + 1)
    expect(usageAt(u, T0 + 2)).toMatchObject({ dailyTransactionCount: 2, dailySpend: 500, monthlySpend: 500 })
    // T0 is 23:00 on 31 March: an hour later is April.
    expect(usageAt(u, T0 + 3_600_000)).toMatchObject({ dailyTransactionCount: 0, dailySpend: 0, monthlySpend: 0 })
    expect(usageView(u, T0)).toMatchObject({ dailyResetDate: "2026-04-01", monthlyResetMonth: "2026-04" })
  })

  it("a policy update replaces the fields given, spending limits field by field", () => {
    const p: AgentPolicy = { permissions: ["CREATE_TRANSFERS"], defaultExecutionMode: "AUTO", spendingLimits: { currency: "USD", perTransactionLimit: 10, dailyLimit: 100 } }
    expect(updatedPolicy(p, { spendingLimits: { dailyLimit: null }, defaultExecutionMode: "APPROVAL_REQUIRED" })).toEqual({
      permissions: ["CREATE_TRANSFERS"],
      defaultExecutionMode: "APPROVAL_REQUIRED",
      spendingLimits: { currency: "USD", perTransactionLimit: 10, dailyLimit: null }
    })
  })
})
