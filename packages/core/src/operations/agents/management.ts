import { Clock, Effect, Either, Schema } from "effect"
import { AgentCreate, AgentPolicyUpdate, type AgentRecord, AgentUpdate, type AgentUsageCounters, deviceCodeView } from "../../domain/agents/agent.ts"
import { Agents, Customers } from "../../domain/collections.ts"
import { DateTimeString, optional } from "../../domain/common.ts"
import { type FieldError, fieldErrorsOf, invalidInput } from "../../domain/field-errors.ts"
import { makeId } from "../../domain/ids.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { reply, NO_CONTENT } from "../../domain/reply.ts"
import { rfc3339 } from "../../domain/time.ts"
import { emptyUsage, updatedPolicy, usageAt } from "../../machines/agent-policy.ts"
import { equivalent } from "../quotes/rates.ts"
import { Ids } from "../../ports/ids.ts"
import { Store } from "../../ports/store.ts"
import { isJsonObject, bodyNotAnObject } from "../../domain/field-errors.ts"
import { atOrAfter, atOrBefore, equal, listPage, pageParams } from "../common/listing.ts"
import { abandonPendingActions } from "./actions.ts"
import { issueDeviceCode, revokeAgentAccess } from "./credentials.ts"
import { loadAgent } from "./load.ts"
import { agentView, agentViewNow } from "./views.ts"

/** Agent management with the platform's credentials (DECISIONS #370–#372). */

/** Decodes a body, listing every invalid field, plus the checks across fields the schema cannot state. */
const decodeAll = <A, I>(schema: Schema.Schema<A, I>, extra: (body: Record<string, unknown>) => ReadonlyArray<FieldError> = () => []) => {
  const decode = Schema.decodeUnknownEither(schema, { errors: "all", onExcessProperty: "ignore" })
  return (body: unknown): Either.Either<A, ReturnType<typeof invalidInput>> => {
    if (!isJsonObject(body)) return Either.left(bodyNotAnObject())
    const decoded = decode(body)
    const errors = [...(Either.isLeft(decoded) ? fieldErrorsOf(decoded.left, []) : []), ...extra(body)]
    return errors.length > 0 || Either.isLeft(decoded) ? Either.left(invalidInput(errors)) : Either.right(decoded.right)
  }
}

/** An approval threshold's amount is in its currency: the reference requires one with the other. */
const thresholdProblems = (prefix: string) => (body: Record<string, unknown>): ReadonlyArray<FieldError> => {
  const policy = prefix === "" ? body : body[prefix]
  const t = isJsonObject(policy) ? policy["approvalThresholds"] : undefined
  return isJsonObject(t) && t["amount"] !== undefined && t["amount"] !== null && t["currency"] === undefined
    ? [{ field: `${prefix === "" ? "" : `${prefix}.`}approvalThresholds.currency`, message: "is required when amount is set" }]
    : []
}

const decodeCreate = decodeAll(AgentCreate, thresholdProblems("policy"))
const decodeUpdate = decodeAll(AgentUpdate, (b) => (b["name"] === undefined && b["isPaused"] === undefined ? [{ field: "body", message: "must give name or isPaused" }] : []))
const decodePolicyUpdate = decodeAll(AgentPolicyUpdate, thresholdProblems(""))

/**
 * POST /agents (201): the agent, for an active customer of the platform, and its first device
 * code, in one transaction. The reference gives this route no 404: an unknown customer is a bad
 * field (400).
 */
export const createAgent = (platform: PlatformRecord, body: unknown) =>
  Effect.gen(function* () {
    const input = yield* decodeCreate(body)
    const store = yield* Store
    const id = makeId("Agent", yield* (yield* Ids).uuid)
    return yield* store.transaction(
      Effect.gen(function* () {
        const customer = yield* store.get(Customers, platform.id, input.customerId)
        if (customer._tag === "None" || customer.value.isDeleted) return yield* invalidInput([{ field: "customerId", message: "names no customer of this platform" }])
        const now = yield* Clock.currentTimeMillis
        const at = rfc3339(now)
        const agent: AgentRecord = { id, name: input.name, customerId: input.customerId, isPaused: false, isConnected: false, policy: input.policy, usage: emptyUsage(now), createdAt: at, updatedAt: at }
        yield* store.put(Agents, platform.id, agent)
        const code = yield* issueDeviceCode(platform.id, id, now)
        return reply(201, { agent: agentView(agent, now), deviceCode: deviceCodeView(code) })
      })
    )
  })

export const AgentListQuery = Schema.Struct({
  customerId: optional(Schema.String),
  isPaused: optional(Schema.BooleanFromString),
  isConnected: optional(Schema.BooleanFromString),
  createdAfter: optional(DateTimeString),
  createdBefore: optional(DateTimeString),
  updatedAfter: optional(DateTimeString),
  updatedBefore: optional(DateTimeString),
  ...pageParams
})

/** GET /agents: in creation order, filtered as the reference names. */
export const listAgents = (platform: PlatformRecord, query: unknown) =>
  Effect.flatMap(Clock.currentTimeMillis, (now) =>
    listPage({
      collection: Agents,
      scope: platform.id,
      querySchema: AgentListQuery,
      query,
      where: (q) => [
        equal("customerId", q.customerId),
        equal("isPaused", q.isPaused === undefined ? undefined : String(q.isPaused)),
        equal("isConnected", q.isConnected === undefined ? undefined : String(q.isConnected)),
        atOrAfter("createdAt", q.createdAfter),
        atOrBefore("createdAt", q.createdBefore),
        atOrAfter("updatedAt", q.updatedAfter),
        atOrBefore("updatedAt", q.updatedBefore)
      ],
      view: (a) => agentView(a, now)
    })
  )

export const getAgent = (platform: PlatformRecord, id: string) => Effect.flatMap(loadAgent(platform, id), agentViewNow)

/** Loads, changes and saves one agent in a transaction, answering its view. */
const change = (platform: PlatformRecord, id: string, f: (a: AgentRecord, at: string) => AgentRecord) =>
  Effect.flatMap(Store, (store) =>
    store.transaction(
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const changed = f(yield* loadAgent(platform, id), rfc3339(now))
        yield* store.put(Agents, platform.id, changed)
        return agentView(changed, now)
      })
    )
  )

/** PATCH /agents/{agentId}: its name or paused state (at least one). A paused agent initiates nothing. */
export const updateAgent = (platform: PlatformRecord, id: string, body: unknown) =>
  Effect.flatMap(decodeUpdate(body), (u) =>
    change(platform, id, (a, at) => ({ ...a, ...(u.name === undefined ? {} : { name: u.name }), ...(u.isPaused === undefined ? {} : { isPaused: u.isPaused }), updatedAt: at }))
  )

/**
 * The usage counters in the policy's new currency (DECISIONS #390): today's and this month's spend
 * converted at the sandbox's rate of now (rounded down, as every conversion of a policy is), so a
 * change of currency neither forgets what was spent nor reads it in the wrong unit.
 */
const usageIn = (usage: AgentUsageCounters, from: string, to: string, now: number) =>
  from === to
    ? Effect.succeed(usage)
    : Effect.gen(function* () {
        const at = usageAt(usage, now)
        return { ...at, dailySpend: yield* equivalent(at.dailySpend, from, to, now), monthlySpend: yield* equivalent(at.monthlySpend, from, to, now) }
      })

/** PATCH /agents/{agentId}/policy: the given fields replace the stored ones; effective at once. */
export const updateAgentPolicy = (platform: PlatformRecord, id: string, body: unknown) =>
  Effect.flatMap(decodePolicyUpdate(body), (u) =>
    Effect.flatMap(Store, (store) =>
      store.transaction(
        Effect.gen(function* () {
          const now = yield* Clock.currentTimeMillis
          const agent = yield* loadAgent(platform, id)
          const policy = updatedPolicy(agent.policy, u)
          const usage = yield* usageIn(agent.usage, agent.policy.spendingLimits.currency, policy.spendingLimits.currency, now)
          const changed: AgentRecord = { ...agent, policy, usage, updatedAt: rfc3339(now) }
          yield* store.put(Agents, platform.id, changed)
          return agentView(changed, now)
        })
      )
    )
  )

/**
 * DELETE /agents/{agentId} (204): the agent, its device codes and its credential go in one
 * transaction, so its token stops working at once. Its actions stay, for the record; pending ones
 * become FAILED (AGENT_DELETED) in the same transaction, as nobody can approve them any more.
 */
export const deleteAgent = (platform: PlatformRecord, id: string) =>
  Effect.flatMap(Store, (store) =>
    store.transaction(
      Effect.gen(function* () {
        const agent = yield* loadAgent(platform, id)
        yield* revokeAgentAccess(agent.id)
        yield* abandonPendingActions(platform, agent.id, yield* Clock.currentTimeMillis)
        yield* store.remove(Agents, platform.id, agent.id)
        return NO_CONTENT
      })
    )
  )
