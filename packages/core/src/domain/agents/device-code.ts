/**
 * An agent's device code and its view, apart from the agents' schemas (agent.ts): agent
 * authentication (operations/agents/credentials.ts) runs on the server's start path, and importing
 * this from agent.ts built every agent schema at each start (DECISIONS #519).
 */

/** A device code, in the server scope: redemption finds it before it knows the platform. */
export interface AgentDeviceCodeRecord {
  readonly id: string
  readonly platformId: string
  readonly agentId: string
  readonly expiresAt: string
  readonly redeemedAt?: string
  readonly createdAt: string
}

export const deviceCodeView = (c: AgentDeviceCodeRecord) => ({
  code: c.id,
  agentId: c.agentId,
  expiresAt: c.expiresAt,
  redeemed: c.redeemedAt !== undefined
})
