import { Effect } from "effect"
import type { AgentRecord } from "../domain/agents/agent.ts"
import { QuoteRequest } from "../domain/quotes/request.ts"
import { AgentActionListQuery, getOwnAction, listOwnActions } from "../operations/agents/actions.ts"
import { agentCredentialsRefused } from "../operations/agents/credentials.ts"
import {
  createMyExternalAccount,
  createMyQuote,
  deleteMyExternalAccount,
  executeMyQuote,
  getMe,
  getMyExternalAccount,
  getMyQuote,
  getMyTransaction,
  listMyExternalAccounts,
  listMyInternalAccounts,
  listMyTransactions,
  submitMyTransfer
} from "../operations/agents-me/me.ts"
import { CustomerExternalAccountsQuery } from "../operations/external-accounts/external-accounts.ts"
import { CustomerAccountsQuery } from "../operations/internal-accounts/queries.ts"
import { TransactionListQuery } from "../operations/transactions/list.ts"
import { TransferInBody, TransferOutBody } from "../operations/transactions/transfers.ts"
import { ExternalAccountCreate } from "./account-bodies.ts"
import { endpoint } from "./define.ts"

/** The calling agent, which the transport (or `engine.asAgent`) authenticated; none is 401. */
const me = <A, E, R>(r: { readonly agent?: AgentRecord }, f: (agent: AgentRecord) => Effect.Effect<A, E, R>) =>
  r.agent === undefined ? Effect.fail(agentCredentialsRefused("MISSING_CREDENTIALS")) : f(r.agent)

/** `/agents/me/*`: the agent software's own routes, with its Bearer credential (DECISIONS #381–#385). */
export const agentMeEndpoints = [
  endpoint({
    group: "agents-me",
    name: "get",
    method: "GET",
    path: "/agents/me",
    operationId: "getAgentMe",
    status: 200,
    summary: "The calling agent, with its policy and usage",
    auth: "agent",
    run: (r) => me(r, getMe)
  }),
  endpoint({
    group: "agents-me",
    name: "listTransactions",
    method: "GET",
    path: "/agents/me/transactions",
    operationId: "agentListTransactions",
    status: 200,
    summary: "The agent's customer's transactions (needs VIEW_TRANSACTIONS)",
    query: TransactionListQuery,
    auth: "agent",
    run: (r) => me(r, (agent) => listMyTransactions(r.platform, agent, r.query))
  }),
  endpoint({
    group: "agents-me",
    name: "getTransaction",
    method: "GET",
    path: "/agents/me/transactions/{transactionId}",
    operationId: "agentGetTransaction",
    status: 200,
    summary: "One of the agent's customer's transactions (another customer's is 404)",
    auth: "agent",
    run: (r) => me(r, (agent) => getMyTransaction(r.platform, agent, r.params.transactionId))
  }),
  endpoint({
    group: "agents-me",
    name: "createQuote",
    method: "POST",
    path: "/agents/me/quotes",
    operationId: "agentCreateQuote",
    status: 201,
    summary: "Price a transfer between the agent's customer's accounts (needs CREATE_QUOTES)",
    body: QuoteRequest,
    documentBody: false,
    idempotent: true,
    auth: "agent",
    run: (r) => me(r, (agent) => createMyQuote(r.platform, agent, r.body, r.idempotencyKey))
  }),
  endpoint({
    group: "agents-me",
    name: "getQuote",
    method: "GET",
    path: "/agents/me/quotes/{quoteId}",
    operationId: "agentGetQuote",
    status: 200,
    summary: "A quote this agent created (any other is 404)",
    auth: "agent",
    run: (r) => me(r, (agent) => getMyQuote(r.platform, agent, r.params.quoteId))
  }),
  endpoint({
    group: "agents-me",
    name: "executeQuote",
    method: "POST",
    path: "/agents/me/quotes/{quoteId}/execute",
    operationId: "agentExecuteQuote",
    status: 200,
    summary: "Ask to execute one of the agent's quotes: an action its policy runs at once or holds for approval",
    idempotent: true,
    auth: "agent",
    run: (r) => me(r, (agent) => executeMyQuote(r.platform, agent, r.params.quoteId, r.idempotencyKey))
  }),
  endpoint({
    group: "agents-me",
    name: "listActions",
    method: "GET",
    path: "/agents/me/actions",
    operationId: "agentListActions",
    status: 200,
    summary: "The agent's own actions, newest first, with their decisions",
    query: AgentActionListQuery,
    auth: "agent",
    run: (r) => me(r, (agent) => listOwnActions(r.platform, agent, r.query))
  }),
  endpoint({
    group: "agents-me",
    name: "getAction",
    method: "GET",
    path: "/agents/me/actions/{actionId}",
    operationId: "agentGetAction",
    status: 200,
    summary: "One of the agent's own actions: poll it for the platform's decision",
    auth: "agent",
    run: (r) => me(r, (agent) => getOwnAction(r.platform, agent, r.params.actionId))
  }),
  endpoint({
    group: "agents-me",
    name: "transferIn",
    method: "POST",
    path: "/agents/me/transfer-in",
    operationId: "agentCreateTransferIn",
    status: 201,
    summary: "Ask to pull money from the customer's external account into its internal account (needs CREATE_TRANSFERS)",
    body: TransferInBody,
    idempotent: true,
    auth: "agent",
    run: (r) => me(r, (agent) => submitMyTransfer(r.platform, agent, "in", r.body, r.idempotencyKey))
  }),
  endpoint({
    group: "agents-me",
    name: "transferOut",
    method: "POST",
    path: "/agents/me/transfer-out",
    operationId: "agentCreateTransferOut",
    status: 201,
    summary: "Ask to pay money from the customer's internal account to its external account (needs CREATE_TRANSFERS)",
    body: TransferOutBody,
    idempotent: true,
    auth: "agent",
    run: (r) => me(r, (agent) => submitMyTransfer(r.platform, agent, "out", r.body, r.idempotencyKey))
  }),
  endpoint({
    group: "agents-me",
    name: "listInternalAccounts",
    method: "GET",
    path: "/agents/me/internal-accounts",
    operationId: "agentListInternalAccounts",
    status: 200,
    summary: "The agent's customer's internal accounts",
    query: CustomerAccountsQuery,
    auth: "agent",
    run: (r) => me(r, (agent) => listMyInternalAccounts(r.platform, agent, r.query))
  }),
  endpoint({
    group: "agents-me",
    name: "listExternalAccounts",
    method: "GET",
    path: "/agents/me/external-accounts",
    operationId: "agentListExternalAccounts",
    status: 200,
    summary: "The agent's customer's external accounts (needs MANAGE_EXTERNAL_ACCOUNTS)",
    query: CustomerExternalAccountsQuery,
    auth: "agent",
    run: (r) => me(r, (agent) => listMyExternalAccounts(r.platform, agent, r.query))
  }),
  endpoint({
    group: "agents-me",
    name: "createExternalAccount",
    method: "POST",
    path: "/agents/me/external-accounts",
    operationId: "agentCreateExternalAccount",
    status: 201,
    summary: "Register a bank account or wallet for the agent's customer (needs MANAGE_EXTERNAL_ACCOUNTS)",
    body: ExternalAccountCreate,
    documentBody: false,
    auth: "agent",
    run: (r) => me(r, (agent) => createMyExternalAccount(r.platform, agent, r.body))
  }),
  endpoint({
    group: "agents-me",
    name: "getExternalAccount",
    method: "GET",
    path: "/agents/me/external-accounts/{externalAccountId}",
    operationId: "agentGetExternalAccount",
    status: 200,
    summary: "One of the agent's customer's external accounts (another's is 404)",
    auth: "agent",
    run: (r) => me(r, (agent) => getMyExternalAccount(r.platform, agent, r.params.externalAccountId))
  }),
  endpoint({
    group: "agents-me",
    name: "deleteExternalAccount",
    method: "DELETE",
    path: "/agents/me/external-accounts/{externalAccountId}",
    operationId: "agentDeleteExternalAccount",
    status: 204,
    summary: "Delete one of the agent's customer's external accounts (needs MANAGE_EXTERNAL_ACCOUNTS)",
    auth: "agent",
    run: (r) => me(r, (agent) => deleteMyExternalAccount(r.platform, agent, r.params.externalAccountId))
  })
]
