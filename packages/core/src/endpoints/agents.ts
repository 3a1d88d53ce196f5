import { AgentActionReject, AgentCreate, AgentPolicyUpdate, AgentUpdate } from "../domain/agents/agent.ts"
import { ApprovalListQuery, approveAgentAction, listAgentApprovals, rejectAgentAction } from "../operations/agents/actions.ts"
import { deviceCodeStatus, redeemDeviceCode, regenerateDeviceCode } from "../operations/agents/credentials.ts"
import { AgentListQuery, createAgent, deleteAgent, getAgent, listAgents, updateAgent, updateAgentPolicy } from "../operations/agents/management.ts"
import { endpoint } from "./define.ts"

/**
 * Agent management (DECISIONS #370–#380), with the platform's credentials; the device code's
 * redemption alone is called by the agent software, with the code as its only credential.
 */
export const agentEndpoints = [
  endpoint({
    group: "agents",
    name: "create",
    method: "POST",
    path: "/agents",
    operationId: "createAgent",
    status: 201,
    summary: "Create an agent for a customer, with its policy, and the device code its software redeems to connect",
    body: AgentCreate,
    run: (r) => createAgent(r.platform, r.body)
  }),
  endpoint({
    group: "agents",
    name: "list",
    method: "GET",
    path: "/agents",
    operationId: "listAgents",
    status: 200,
    summary: "List the platform's agents, filtered as the reference names, paged by cursor",
    query: AgentListQuery,
    run: (r) => listAgents(r.platform, r.query)
  }),
  endpoint({
    group: "agents",
    name: "listApprovals",
    method: "GET",
    path: "/agents/approvals",
    operationId: "listAgentApprovals",
    status: 200,
    summary: "List the agent actions waiting for the platform's approval, newest first unless sortOrder=asc",
    query: ApprovalListQuery,
    run: (r) => listAgentApprovals(r.platform, r.query)
  }),
  endpoint({
    group: "agents",
    name: "get",
    method: "GET",
    path: "/agents/{agentId}",
    operationId: "getAgentById",
    status: 200,
    summary: "An agent, with its policy and its usage today and this month",
    run: (r) => getAgent(r.platform, r.params.agentId)
  }),
  endpoint({
    group: "agents",
    name: "update",
    method: "PATCH",
    path: "/agents/{agentId}",
    operationId: "updateAgent",
    status: 200,
    summary: "Rename an agent or pause it (a paused agent initiates nothing) or resume it",
    body: AgentUpdate,
    run: (r) => updateAgent(r.platform, r.params.agentId, r.body)
  }),
  endpoint({
    group: "agents",
    name: "delete",
    method: "DELETE",
    path: "/agents/{agentId}",
    operationId: "deleteAgent",
    status: 204,
    summary: "Delete an agent: its credential stops working at once",
    run: (r) => deleteAgent(r.platform, r.params.agentId)
  }),
  endpoint({
    group: "agents",
    name: "updatePolicy",
    method: "PATCH",
    path: "/agents/{agentId}/policy",
    operationId: "updateAgentPolicy",
    status: 200,
    summary: "Change part of an agent's policy; the next action is decided by the new one",
    body: AgentPolicyUpdate,
    run: (r) => updateAgentPolicy(r.platform, r.params.agentId, r.body)
  }),
  endpoint({
    group: "agents",
    name: "regenerateDeviceCode",
    method: "POST",
    path: "/agents/{agentId}/device-codes",
    operationId: "regenerateAgentDeviceCode",
    status: 201,
    summary: "A new device code for an agent not yet connected; its earlier unredeemed codes stop working (409 once connected)",
    run: (r) => regenerateDeviceCode(r.platform, r.params.agentId)
  }),
  endpoint({
    group: "agents",
    name: "approveAction",
    method: "POST",
    path: "/agents/{agentId}/actions/{actionId}/approve",
    operationId: "approveAgentAction",
    status: 200,
    summary: "Approve a pending agent action: it runs now, once (FAILED if it cannot; 409 when not pending)",
    run: (r) => approveAgentAction(r.platform, r.params.agentId, r.params.actionId)
  }),
  endpoint({
    group: "agents",
    name: "rejectAction",
    method: "POST",
    path: "/agents/{agentId}/actions/{actionId}/reject",
    operationId: "rejectAgentAction",
    status: 200,
    summary: "Reject a pending agent action: it never runs (409 when not pending)",
    body: AgentActionReject,
    optionalBody: true,
    run: (r) => rejectAgentAction(r.platform, r.params.agentId, r.params.actionId, r.body)
  }),
  endpoint({
    group: "agents",
    name: "deviceCodeStatus",
    method: "GET",
    path: "/agents/device-codes/{code}/status",
    operationId: "getAgentDeviceCodeStatus",
    status: 200,
    summary: "Whether a device code was redeemed: poll it to learn that the agent connected",
    run: (r) => deviceCodeStatus(r.platform, r.params.code)
  }),
  endpoint({
    group: "agents",
    name: "redeemDeviceCode",
    method: "POST",
    path: "/agents/device-codes/{code}/redeem",
    operationId: "redeemAgentDeviceCode",
    status: 200,
    summary: "Redeem a device code, once, for the agent's Bearer access token (shown only now); no platform credentials",
    auth: "device-code",
    run: (r) => redeemDeviceCode(r.platform, r.params.code)
  })
]
