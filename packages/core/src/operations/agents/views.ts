import { Clock, Effect, Option } from "effect"
import type { AgentActionRecord, AgentRecord } from "../../domain/agents/agent.ts"
import { Quotes } from "../../domain/collections.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { usageView } from "../../machines/agent-policy.ts"
import { Store } from "../../ports/store.ts"
import { quoteViewNow } from "../quotes/execute.ts"
import { getTransaction } from "../transactions/transactions.ts"

/** The reference's `Agent`: the record with its usage as of `now`. */
export const agentView = (a: AgentRecord, now: number) => ({
  id: a.id,
  name: a.name,
  customerId: a.customerId,
  isPaused: a.isPaused,
  isConnected: a.isConnected,
  policy: a.policy,
  usage: usageView(a.usage, now),
  createdAt: a.createdAt,
  updatedAt: a.updatedAt
})

export const agentViewNow = (a: AgentRecord) => Effect.map(Clock.currentTimeMillis, (now) => agentView(a, now))

/** The action without its quote and transaction: what the pending-approval webhook is built from. */
export const actionFields = (a: AgentActionRecord) => ({
  id: a.id,
  agentId: a.agentId,
  customerId: a.customerId,
  platformCustomerId: a.platformCustomerId,
  status: a.status,
  type: a.type,
  ...(a.transferDetails === undefined ? {} : { transferDetails: a.transferDetails }),
  ...(a.rejectionReason === undefined ? {} : { rejectionReason: a.rejectionReason }),
  createdAt: a.createdAt,
  updatedAt: a.updatedAt
})

/**
 * The reference's `AgentAction`: with the quote it executes (as it stands now) and, once it ran,
 * its transaction (with every due step applied, as `GET /transactions/{id}` shows it).
 */
export const actionView = (platform: PlatformRecord, a: AgentActionRecord) =>
  Effect.gen(function* () {
    const store = yield* Store
    const quote = a.quoteId === undefined ? Option.none() : yield* store.get(Quotes, platform.id, a.quoteId)
    const quoteView = Option.isSome(quote) ? yield* quoteViewNow(platform, quote.value) : undefined
    const transaction = a.transactionId === undefined ? undefined : yield* Effect.option(getTransaction(platform, a.transactionId))
    const { createdAt, updatedAt, ...fields } = actionFields(a)
    return {
      ...fields,
      ...(quoteView === undefined ? {} : { quote: quoteView }),
      ...(transaction === undefined || Option.isNone(transaction) ? {} : { transaction: transaction.value }),
      createdAt,
      updatedAt
    }
  })
