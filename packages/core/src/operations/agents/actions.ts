import { Clock, Effect, Either, Option, Schema } from "effect"
import { AgentActionReject, type AgentActionRecord, type AgentActionType, type AgentRecord, type AgentTransferDetails, agentActionStatuses } from "../../domain/agents/agent.ts"
import { AgentActions, Agents, Customers } from "../../domain/collections.ts"
import { DateTimeString, optional } from "../../domain/common.ts"
import { type DomainError, isDomainError } from "../../domain/envelope.ts"
import { bodyNotAnObject, decodeInput, isJsonObject } from "../../domain/field-errors.ts"
import { makeId } from "../../domain/ids.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { rfc3339 } from "../../domain/time.ts"
import { AGENT_ACTION_APPROVAL_WINDOW_MS } from "../../limits.ts"
import { agentAction, type AgentActionEvent, submittedAction } from "../../machines/agent-action.ts"
import { countSpend, decideAction, mayAct } from "../../machines/agent-policy.ts"
import type { QuoteRecord } from "../../domain/quotes/quote.ts"
import { Ids } from "../../ports/ids.ts"
import { Notifier } from "../../ports/notifier.ts"
import { sortableTimestamp, Store } from "../../ports/store.ts"
import { atOrAfter, atOrBefore, equal, listPage, pageParams } from "../common/listing.ts"
import { loadQuote, quoteViewNow, startExecution } from "../quotes/execute.ts"
import { equivalent } from "../quotes/rates.ts"
import { runTransfer } from "../transactions/transfers.ts"
import { loadAction, loadAgent } from "./load.ts"
import { actionFields, actionView } from "./views.ts"

/**
 * Agent actions (DECISIONS #374–#380): an agent's transfer or quote execution, decided by its
 * policy (run at once, wait for the platform, or 403), and the platform's approval or rejection.
 * An action runs through the same operations as the platform's own requests, so its money moves
 * through the same gates and ledger.
 */

/** What an action does when it runs, in the caller's transaction: the transaction it started. */
const runAction = (platform: PlatformRecord, a: AgentActionRecord) =>
  Effect.gen(function* () {
    if (a.type === "EXECUTE_QUOTE") {
      const quote = yield* loadQuote(platform, a.quoteId ?? "")
      yield* startExecution(platform, quote, yield* Clock.currentTimeMillis)
      return quote.transactionId
    }
    const view = yield* runTransfer(platform, a.type === "TRANSFER_OUT" ? "out" : "in", a.request)
    return view.id
  })

/** The customer's internal account a quote moves money from, else the one it pays into (what `allowedAccountIds` and account rules name). */
export const internalAccountOf = (q: QuoteRecord): string =>
  q.sourceKind === "INTERNAL" && q.source.sourceType === "ACCOUNT"
    ? q.source.accountId
    : q.destinationKind === "INTERNAL" && q.destination.destinationType === "ACCOUNT"
      ? q.destination.accountId
      : ""

/** The internal account an action moves money from or to: what its policy's account rules judge. */
const actionAccount = (platform: PlatformRecord, a: AgentActionRecord) =>
  a.type === "EXECUTE_QUOTE"
    ? Effect.map(loadQuote(platform, a.quoteId ?? ""), internalAccountOf)
    : Effect.succeed((a.type === "TRANSFER_OUT" ? a.transferDetails?.sourceAccountId : a.transferDetails?.destinationAccountId) ?? "")

/** An amount in another currency (the sandbox's rate of now); the same currency is the amount itself. */
const convert = (amount: number, from: string, to: string, now: number) => (from === to ? Effect.succeed(amount) : equivalent(amount, from, to, now))

/** What an agent asks to do: its type, amount, the customer's internal account it touches, and what runs. */
export interface ActionRequest {
  readonly type: AgentActionType
  readonly amount: number
  readonly currency: string
  readonly internalAccountId: string
  readonly quoteId?: string
  readonly transferDetails?: AgentTransferDetails
  readonly request?: Readonly<Record<string, unknown>>
}

const stepped = (a: AgentActionRecord, event: AgentActionEvent, now: number) => {
  const step = agentAction(a, event, now)
  return Either.isLeft(step) ? Effect.fail(step.left) : Effect.succeed(step.right.state)
}

/**
 * Submits an action: the policy decides at the rate of now. RUN executes it in the same
 * transaction as the action is recorded APPROVED and counted in the agent's usage (a failure
 * answers the operation's error and records nothing); APPROVAL records it PENDING_APPROVAL and
 * tells the platform by AGENT_ACTION.PENDING_APPROVAL.
 */
export const submitAction = (platform: PlatformRecord, agent: AgentRecord, r: ActionRequest) =>
  Effect.gen(function* () {
    const store = yield* Store
    const id = makeId("AgentAction", yield* (yield* Ids).uuid)
    const view = yield* store.transaction(
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const current = Option.getOrElse(yield* store.get(Agents, platform.id, agent.id), () => agent)
        const policy = current.policy
        const spend = yield* convert(r.amount, r.currency, policy.spendingLimits.currency, now)
        const thresholdCurrency = policy.approvalThresholds?.currency ?? policy.spendingLimits.currency
        const thresholdSpend = yield* convert(r.amount, r.currency, thresholdCurrency, now)
        const decision = decideAction(current, { type: r.type, spend, thresholdSpend, internalAccountId: r.internalAccountId }, now)
        if (Either.isLeft(decision)) return yield* Effect.fail(decision.left)
        const customer = yield* store.get(Customers, platform.id, current.customerId)
        const at = rfc3339(now)
        const quote = r.quoteId === undefined ? undefined : yield* quoteViewNow(platform, yield* loadQuote(platform, r.quoteId))
        const { action, emit } = submittedAction(
          {
            id,
            agentId: current.id,
            customerId: current.customerId,
            platformCustomerId: Option.match(customer, { onNone: () => current.customerId, onSome: (c) => c.platformCustomerId }),
            type: r.type,
            ...(r.quoteId === undefined ? {} : { quoteId: r.quoteId }),
            ...(r.transferDetails === undefined ? {} : { transferDetails: r.transferDetails }),
            ...(r.request === undefined ? {} : { request: r.request }),
            spend,
            expiresAt: rfc3339(now + AGENT_ACTION_APPROVAL_WINDOW_MS),
            createdAt: at,
            updatedAt: at
          },
          decision.right,
          (a) => ({ ...actionFields(a), ...(quote === undefined ? {} : { quote }) })
        )
        let saved = action
        if (action.status === "APPROVED") {
          saved = yield* stepped(action, { _tag: "Run", transactionId: yield* runAction(platform, action) }, now)
          yield* store.put(Agents, platform.id, { ...current, usage: countSpend(current.usage, spend, now) })
        }
        yield* store.put(AgentActions, platform.id, saved)
        const notifier = yield* Notifier
        for (const e of emit) yield* notifier.publish(platform.id, e)
        return yield* actionView(platform, saved)
      })
    )
    return view
  })

/** The failure's code, recorded on the action as why running it failed. */
const reasonOf = (e: unknown): string => (isDomainError(e) ? (e as DomainError)._tag : "EXECUTION_FAILED")

/**
 * POST /agents/{agentId}/actions/{actionId}/approve: a pending action is approved and runs now,
 * once, in one transaction with its usage counted. Past its approval window it is FAILED and
 * nothing runs; when running fails (the quote expired, the money is not there), the run is
 * rolled back and the action recorded FAILED in a second transaction. Either way 200 with the
 * action; 409 when it is not pending.
 */
export const approveAgentAction = (platform: PlatformRecord, agentId: string, actionId: string) =>
  Effect.gen(function* () {
    const store = yield* Store
    const attempt = yield* Effect.either(
      store.transaction(
        Effect.gen(function* () {
          const now = yield* Clock.currentTimeMillis
          const agent = yield* loadAgent(platform, agentId)
          const approved = yield* stepped(yield* loadAction(platform, agentId, actionId), { _tag: "Approve" }, now)
          if (approved.status !== "APPROVED") {
            yield* store.put(AgentActions, platform.id, approved)
            return approved
          }
          // The agent may have been paused, or lost the permission or the account, since it asked.
          const may = mayAct(agent, approved.type, yield* actionAccount(platform, approved))
          if (Either.isLeft(may)) {
            const failed = yield* stepped(approved, { _tag: "Fail", reason: String(may.left.details?.["reason"] ?? "AGENT_NOT_ALLOWED") }, now)
            yield* store.put(AgentActions, platform.id, failed)
            return failed
          }
          const ran = yield* stepped(approved, { _tag: "Run", transactionId: yield* runAction(platform, approved) }, now)
          yield* store.put(AgentActions, platform.id, ran)
          yield* store.put(Agents, platform.id, { ...agent, usage: countSpend(agent.usage, ran.spend, now) })
          return ran
        })
      )
    )
    if (Either.isRight(attempt)) return yield* actionView(platform, attempt.right)
    const error = attempt.left
    // Not found, not pending, or a store failure: nothing ran and nothing changes.
    if (!isDomainError(error) || error._tag === "REFERENCE_NOT_FOUND" || error._tag === "CONFLICT") return yield* Effect.fail(error)
    const failed = yield* store.transaction(
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const approved = yield* stepped(yield* loadAction(platform, agentId, actionId), { _tag: "Approve" }, now)
        const result = approved.status === "APPROVED" ? yield* stepped(approved, { _tag: "Fail", reason: reasonOf(error) }, now) : approved
        yield* store.put(AgentActions, platform.id, result)
        return result
      })
    )
    return yield* actionView(platform, failed)
  })

const decodeReject = decodeInput(AgentActionReject)

/** POST /agents/{agentId}/actions/{actionId}/reject: a pending action is REJECTED (with the reason given) and never runs. */
export const rejectAgentAction = (platform: PlatformRecord, agentId: string, actionId: string, body: unknown) =>
  Effect.gen(function* () {
    if (body !== undefined && body !== null && !isJsonObject(body)) return yield* bodyNotAnObject()
    const input = body === undefined || body === null ? {} : yield* decodeReject(body)
    const store = yield* Store
    const rejected = yield* store.transaction(
      Effect.gen(function* () {
        yield* loadAgent(platform, agentId)
        const now = yield* Clock.currentTimeMillis
        const next = yield* stepped(yield* loadAction(platform, agentId, actionId), { _tag: "Reject", ...(input.reason === undefined ? {} : { reason: input.reason }) }, now)
        yield* store.put(AgentActions, platform.id, next)
        return next
      })
    )
    return yield* actionView(platform, rejected)
  })

export const ApprovalListQuery = Schema.Struct({
  agentId: optional(Schema.String),
  customerId: optional(Schema.String),
  startDate: optional(DateTimeString),
  endDate: optional(DateTimeString),
  sortOrder: optional(Schema.Literal("asc", "desc")),
  ...pageParams
})

/** The actions' views, each with its quote and transaction as they stand now. */
const withViews = (platform: PlatformRecord) => <L extends { readonly data: ReadonlyArray<AgentActionRecord> }>(page: L) =>
  Effect.map(Effect.forEach(page.data, (a) => actionView(platform, a)), (data) => ({ ...page, data }))

/**
 * GET /agents/approvals: the actions waiting for the platform's decision, newest first unless
 * sortOrder=asc. One whose approval window has passed can no longer be approved (approving it
 * fails it), so it is not listed (DECISIONS #392).
 */
export const listAgentApprovals = (platform: PlatformRecord, query: unknown) =>
  Effect.flatMap(Clock.currentTimeMillis, (now) =>
    listPage({
      collection: AgentActions,
      scope: platform.id,
      querySchema: ApprovalListQuery,
      query,
      where: (q) => [
        { index: "pending", gt: sortableTimestamp(rfc3339(now)) ?? "" },
        equal("agentId", q.agentId),
        equal("customerId", q.customerId),
        atOrAfter("createdAt", q.startDate),
        atOrBefore("createdAt", q.endDate)
      ],
      view: (a) => a,
      descending: (q) => q.sortOrder !== "asc"
    }).pipe(Effect.flatMap(withViews(platform)))
  )

export const AgentActionListQuery = Schema.Struct({ status: optional(Schema.Literal(...agentActionStatuses)), ...pageParams })

/** GET /agents/me/actions: the agent's own actions, newest first. */
export const listOwnActions = (platform: PlatformRecord, agent: AgentRecord, query: unknown) =>
  Effect.flatMap(
    listPage({
      collection: AgentActions,
      scope: platform.id,
      querySchema: AgentActionListQuery,
      query,
      where: (q) => [equal("agentId", agent.id), equal("status", q.status)],
      view: (a) => a,
      descending: () => true
    }),
    withViews(platform)
  )

/** GET /agents/me/actions/{actionId}: one of the agent's own actions (another's is 404). */
export const getOwnAction = (platform: PlatformRecord, agent: AgentRecord, actionId: string) =>
  Effect.flatMap(loadAction(platform, agent.id, actionId), (a) => actionView(platform, a))

/**
 * A deleted agent's pending actions can never be decided: each becomes FAILED with the reason
 * AGENT_DELETED (APPROVAL_WINDOW_EXPIRED when its window had passed), in the deletion's
 * transaction, so no approval queue keeps them (DECISIONS #391).
 */
export const abandonPendingActions = (platform: PlatformRecord, agentId: string, now: number) =>
  Effect.gen(function* () {
    const store = yield* Store
    const pending = yield* store.list(AgentActions, platform.id, { where: [{ index: "agentId", eq: agentId }, { index: "pending", gte: "" }], limit: Number.MAX_SAFE_INTEGER })
    for (const a of pending.items) yield* store.put(AgentActions, platform.id, yield* stepped(a, { _tag: "Abandon", reason: "AGENT_DELETED" }, now))
  })
