import { Schema } from "effect"
import { AgentPolicy, agentActionStatuses } from "../agents/agent.ts"
import { AgentActions, AgentQuotes, Agents } from "../collections.ts"
import { CalendarDate, DateTimeString, NonEmpty, optional } from "../common.ts"
import { IdSchema } from "../ids.ts"
import { lazily } from "./lazily.ts"

/**
 * Agents in a state document (DECISIONS #387): the agents with their policies and usage, their
 * actions, and which quotes each created. Device codes and credentials are not state: they live in
 * the server scope beside API tokens; an imported agent whose credential is not on this server
 * is connected again by regenerating its device code.
 */
export const agentStates = lazily(() => {
  const Count = Schema.Number.pipe(Schema.int(), Schema.nonNegative())

  const AgentState = Schema.Struct({
    id: IdSchema("Agent"),
    name: NonEmpty(256),
    customerId: IdSchema("Customer"),
    isPaused: Schema.Boolean,
    isConnected: Schema.Boolean,
    policy: AgentPolicy,
    usage: Schema.Struct({
      day: CalendarDate,
      dailyTransactionCount: Count,
      dailySpend: Count,
      month: Schema.String.pipe(Schema.pattern(/^\d{4}-\d{2}$/, { message: () => "must be a year and month, YYYY-MM" })),
      monthlySpend: Count
    }),
    createdAt: DateTimeString,
    updatedAt: DateTimeString
  })

  const AgentActionState = Schema.Struct({
    id: IdSchema("AgentAction"),
    agentId: IdSchema("Agent"),
    customerId: IdSchema("Customer"),
    platformCustomerId: Schema.String,
    status: Schema.Literal(...agentActionStatuses),
    type: Schema.Literal("EXECUTE_QUOTE", "TRANSFER_OUT", "TRANSFER_IN"),
    quoteId: optional(IdSchema("Quote")),
    transferDetails: optional(Schema.Struct({ amount: Count, currency: NonEmpty(16), sourceAccountId: NonEmpty(128), destinationAccountId: NonEmpty(128) })),
    request: optional(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
    spend: Count,
    transactionId: optional(NonEmpty(128)),
    rejectionReason: optional(Schema.String),
    failureReason: optional(Schema.String),
    expiresAt: DateTimeString,
    createdAt: DateTimeString,
    updatedAt: DateTimeString
  })

  const AgentQuoteState = Schema.Struct({ id: IdSchema("Quote"), agentId: IdSchema("Agent") })
  return { AgentState, AgentActionState, AgentQuoteState }
})

export const agentStateCollections = [
  { collection: Agents, schema: () => agentStates().AgentState },
  { collection: AgentActions, schema: () => agentStates().AgentActionState },
  { collection: AgentQuotes, schema: () => agentStates().AgentQuoteState }
] as const
