import { Clock, Effect, Either, Option } from "effect"
import type { AgentPermission, AgentRecord } from "../../domain/agents/agent.ts"
import { AgentQuotes, InternalAccounts } from "../../domain/collections.ts"
import { Forbidden, TransactionNotFound } from "../../domain/errors.ts"
import { bodyNotAnObject, decodeInput, type FieldError, invalidInput, isJsonObject } from "../../domain/field-errors.ts"
import { isId } from "../../domain/ids.ts"
import { referenceNotFound } from "../../domain/not-found.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { reply } from "../../domain/reply.ts"
import { quoteMachine } from "../../machines/quote.ts"
import { requireActive, requirePermission } from "../../machines/agent-policy.ts"
import { Store } from "../../ports/store.ts"
import { idempotent, requestFingerprint } from "../common/idempotency.ts"
import { createExternalAccount, deleteExternalAccount, findExternalAccount, getExternalAccount, listExternalAccounts } from "../external-accounts/external-accounts.ts"
import { listCustomerInternalAccounts } from "../internal-accounts/queries.ts"
import { createQuote } from "../quotes/create.ts"
import { getQuote, loadQuote, quoteNotFound } from "../quotes/execute.ts"
import { resolveAccount } from "../quotes/resolve.ts"
import { listTransactions } from "../transactions/list.ts"
import { getTransaction } from "../transactions/transactions.ts"
import { TransferInBody, TransferOutBody } from "../transactions/transfers.ts"
import { internalAccountOf, submitAction } from "../agents/actions.ts"
import { agentViewNow } from "../agents/views.ts"

/**
 * `/agents/me/*` (DECISIONS #381–#385): the agent's own view of its customer, through the same
 * operations as the platform's routes, narrowed to that customer. Another customer's resource is
 * 404, as if it did not exist; what the policy does not grant is 403.
 */

const allowed = (agent: AgentRecord, permission: AgentPermission) => requirePermission(agent, permission)

/** The query as given, with the customer filter forced to the agent's customer. */
const scopedQuery = (query: unknown, agent: AgentRecord) => {
  const { platformCustomerId: _p, ...rest } = isJsonObject(query) ? query : {}
  return { ...rest, customerId: agent.customerId }
}

export const getMe = (agent: AgentRecord) => agentViewNow(agent)

export const listMyTransactions = (platform: PlatformRecord, agent: AgentRecord, query: unknown) =>
  Effect.zipRight(allowed(agent, "VIEW_TRANSACTIONS"), listTransactions(platform, scopedQuery(query, agent)))

export const getMyTransaction = (platform: PlatformRecord, agent: AgentRecord, id: string) =>
  Effect.gen(function* () {
    yield* allowed(agent, "VIEW_TRANSACTIONS")
    const view = yield* getTransaction(platform, id)
    if ((view as { readonly customerId?: string }).customerId !== agent.customerId)
      return yield* new TransactionNotFound({ message: `Transaction ${id} not found`, details: { id } })
    return view
  })

/** The customer's internal account (another customer's or the platform's is 404). */
const ownInternalAccount = (platform: PlatformRecord, agent: AgentRecord, id: string) =>
  Effect.gen(function* () {
    const found = isId("InternalAccount", id) ? yield* (yield* Store).get(InternalAccounts, platform.id, id) : Option.none()
    if (Option.isNone(found) || found.value.customerId !== agent.customerId) return yield* Effect.fail(referenceNotFound("InternalAccount", id))
    return found.value
  })

const ownExternalAccount = (platform: PlatformRecord, agent: AgentRecord, id: string) =>
  Effect.flatMap(findExternalAccount(platform, id), (a) => (a.customerId === agent.customerId ? Effect.succeed(a) : Effect.fail(referenceNotFound("ExternalAccount", id))))

/** Where a quote's accounts are not the agent's customer's: a bad field, as `POST /quotes` answers an unknown one. */
const quoteAccountProblems = (platform: PlatformRecord, agent: AgentRecord, body: Record<string, unknown>) =>
  Effect.gen(function* () {
    const problems: Array<FieldError> = []
    const owns = (id: unknown) =>
      typeof id !== "string"
        ? Effect.succeed(true)
        : Effect.map(Effect.either(resolveAccount(platform, id)), (r) => Either.isRight(r) && r.right.account.customerId === agent.customerId)
    const source = isJsonObject(body["source"]) ? body["source"] : {}
    const destination = isJsonObject(body["destination"]) ? body["destination"] : {}
    if (source["sourceType"] === "ACCOUNT" && !(yield* owns(source["accountId"]))) problems.push({ field: "source.accountId", message: "names no account of the agent's customer" })
    if (source["customerId"] !== undefined && source["customerId"] !== agent.customerId) problems.push({ field: "source.customerId", message: "must be the agent's customer" })
    if (destination["destinationType"] === "ACCOUNT" && !(yield* owns(destination["accountId"]))) problems.push({ field: "destination.accountId", message: "names no account of the agent's customer" })
    if (body["immediatelyExecute"] === true) problems.push({ field: "immediatelyExecute", message: "is not allowed for an agent: execute with POST /agents/me/quotes/{quoteId}/execute, which its policy decides" })
    return problems
  })

/** POST /agents/me/quotes: a quote for the agent's customer, remembered as this agent's; needs CREATE_QUOTES. */
export const createMyQuote = (platform: PlatformRecord, agent: AgentRecord, body: unknown, idempotencyKey?: string) =>
  Effect.gen(function* () {
    yield* requireActive(agent)
    yield* allowed(agent, "CREATE_QUOTES")
    if (!isJsonObject(body)) return yield* bodyNotAnObject()
    const problems = yield* quoteAccountProblems(platform, agent, body)
    if (problems.length > 0) return yield* invalidInput(problems)
    const source = isJsonObject(body["source"]) ? body["source"] : {}
    const scoped = source["sourceType"] === "REALTIME_FUNDING" ? { ...body, source: { ...source, customerId: agent.customerId } } : body
    // The agent's keys are its own: the same key from the platform or another agent is another request.
    const key = idempotencyKey === undefined ? undefined : `${agent.id}:${idempotencyKey}`
    const answer = yield* createQuote(platform, scoped, key)
    const id = (answer.body as { readonly id?: string } | undefined)?.id
    if (id !== undefined) yield* (yield* Store).put(AgentQuotes, platform.id, { id, agentId: agent.id })
    return answer
  })

/** The quote if this agent created it (any other quote is 404). */
const ownQuote = (platform: PlatformRecord, agent: AgentRecord, id: string) =>
  Effect.gen(function* () {
    const link = isId("Quote", id) ? yield* (yield* Store).get(AgentQuotes, platform.id, id) : Option.none()
    if (Option.isNone(link) || link.value.agentId !== agent.id) return yield* Effect.fail(quoteNotFound(id))
    return yield* loadQuote(platform, id)
  })

export const getMyQuote = (platform: PlatformRecord, agent: AgentRecord, id: string) => Effect.zipRight(ownQuote(platform, agent, id), getQuote(platform, id))

/**
 * POST /agents/me/quotes/{quoteId}/execute (200): an EXECUTE_QUOTE action, decided by the policy.
 * A quote that cannot be executed now (expired, executed) is refused at once with the quote's
 * 409. An embedded wallet's quote needs the wallet's signature, which an agent does not hold: 403
 * (DECISIONS #383).
 */
export const executeMyQuote = (platform: PlatformRecord, agent: AgentRecord, quoteId: string, idempotencyKey?: string) =>
  idempotent(
    platform,
    idempotencyKey === undefined ? undefined : `${agent.id}:${idempotencyKey}`,
    requestFingerprint("POST", `/agents/me/quotes/${quoteId}/execute`, {}),
    Effect.gen(function* () {
      const quote = yield* ownQuote(platform, agent, quoteId)
      yield* requireActive(agent)
      yield* allowed(agent, "EXECUTE_QUOTES")
      if (quote.sourceAccountType === "EMBEDDED_WALLET")
        return yield* new Forbidden({ message: "An Embedded Wallet's quote is executed with the wallet's signature, which an agent does not hold", details: { reason: "AGENT_EMBEDDED_WALLET_SOURCE", quoteId } })
      const executable = quoteMachine(quote, { _tag: "Execute" }, yield* Clock.currentTimeMillis)
      if (Either.isLeft(executable)) return yield* Effect.fail(executable.left)
      const view = yield* submitAction(platform, agent, {
        type: "EXECUTE_QUOTE",
        amount: quote.totalSendingAmount,
        currency: quote.sendingCurrency.code,
        internalAccountId: internalAccountOf(quote),
        quoteId: quote.id
      })
      return reply(200, view)
    }),
    400
  )

/**
 * POST /agents/me/transfer-in and /transfer-out (201): a transfer action between the customer's
 * accounts (another customer's is 404), decided by the policy. The body is checked as the
 * platform's routes check it before the policy is asked.
 */
export const submitMyTransfer = (platform: PlatformRecord, agent: AgentRecord, direction: "in" | "out", body: unknown, idempotencyKey?: string) =>
  idempotent(
    platform,
    idempotencyKey === undefined ? undefined : `${agent.id}:${idempotencyKey}`,
    requestFingerprint("POST", `/agents/me/transfer-${direction}`, body),
    Effect.gen(function* () {
      if (!isJsonObject(body)) return yield* bodyNotAnObject()
      const input = direction === "in" ? yield* decodeInput(TransferInBody)(body) : yield* decodeInput(TransferOutBody)(body)
      const internalId = direction === "in" ? input.destination.accountId : input.source.accountId
      const externalId = direction === "in" ? input.source.accountId : input.destination.accountId
      const internal = yield* ownInternalAccount(platform, agent, internalId)
      yield* ownExternalAccount(platform, agent, externalId)
      const currency = internal.balance.currency.code
      const view = yield* submitAction(platform, agent, {
        type: direction === "in" ? "TRANSFER_IN" : "TRANSFER_OUT",
        amount: input.amount,
        currency,
        internalAccountId: internal.id,
        transferDetails: { amount: input.amount, currency, sourceAccountId: input.source.accountId, destinationAccountId: input.destination.accountId },
        request: body
      })
      return reply(201, view)
    }),
    400
  )

/** GET /agents/me/internal-accounts: the customer's internal accounts (no permission needed: they are where its actions start). */
export const listMyInternalAccounts = (platform: PlatformRecord, agent: AgentRecord, query: unknown) => listCustomerInternalAccounts(platform, scopedQuery(query, agent))

export const listMyExternalAccounts = (platform: PlatformRecord, agent: AgentRecord, query: unknown) =>
  Effect.zipRight(allowed(agent, "MANAGE_EXTERNAL_ACCOUNTS"), listExternalAccounts(platform, scopedQuery(query, agent), "customers"))

/** POST /agents/me/external-accounts: `customerId` is the agent's customer (another one is a bad field). */
export const createMyExternalAccount = (platform: PlatformRecord, agent: AgentRecord, body: unknown) =>
  Effect.gen(function* () {
    yield* requireActive(agent)
    yield* allowed(agent, "MANAGE_EXTERNAL_ACCOUNTS")
    if (!isJsonObject(body)) return yield* bodyNotAnObject()
    if (body["customerId"] !== undefined && body["customerId"] !== agent.customerId) return yield* invalidInput([{ field: "customerId", message: "must be the agent's customer (or left out)" }])
    return yield* createExternalAccount(platform, { ...body, customerId: agent.customerId }, "customers")
  })

export const getMyExternalAccount = (platform: PlatformRecord, agent: AgentRecord, id: string) =>
  Effect.zipRight(Effect.zipRight(allowed(agent, "MANAGE_EXTERNAL_ACCOUNTS"), ownExternalAccount(platform, agent, id)), getExternalAccount(platform, id, "customers"))

export const deleteMyExternalAccount = (platform: PlatformRecord, agent: AgentRecord, id: string) =>
  Effect.gen(function* () {
    yield* requireActive(agent)
    yield* allowed(agent, "MANAGE_EXTERNAL_ACCOUNTS")
    yield* ownExternalAccount(platform, agent, id)
    return yield* deleteExternalAccount(platform, id, "customers")
  })

