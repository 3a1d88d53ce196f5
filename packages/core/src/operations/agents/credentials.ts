import { Clock, Effect, Option } from "effect"
import type { AgentRecord } from "../../domain/agents/agent.ts"
import { type AgentDeviceCodeRecord, deviceCodeView } from "../../domain/agents/device-code.ts"
import { AgentCredentials, AgentDeviceCodes, Agents, Platforms } from "../../domain/collections.ts"
import { Conflict, InvalidInput, Unauthorized } from "../../domain/errors.ts"
import { referenceNotFound } from "../../domain/not-found.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { rfc3339 } from "../../domain/time.ts"
import { constantTimeEqual, sha256Hex } from "../../crypto/secrets.ts"
import { AGENT_ACCESS_TOKEN_BYTES, AGENT_DEVICE_CODE_LIFETIME_MS } from "../../limits.ts"
import { Ids } from "../../ports/ids.ts"
import { SERVER_SCOPE, Store } from "../../ports/store.ts"
import { loadAgent } from "./load.ts"

/**
 * The device-code flow and agent credentials (DECISIONS #371–#373). A device code is shown to the
 * platform when it creates an agent (or regenerates one); the agent software redeems it once,
 * without platform credentials, for a Bearer access token shown only then. The token is stored
 * as its SHA-256 (a 160-bit random secret needs no slow hash), looked up by that digest, and
 * compared in constant time.
 */

// Crockford-like: no 0/O or 1/I/L, so a code read aloud or typed is not mistaken.
const ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
const CODE = /^GRID-AGENT-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/
const TOKEN = /^gat_[0-9a-f]{40}$/

const codeNotFound = (code: string) => referenceNotFound("AgentDeviceCode", code)

/** A new device code for the agent, in the caller's transaction: `GRID-AGENT-XXXX-XXXX`, as the reference shows them. */
export const issueDeviceCode = (platformId: string, agentId: string, now: number) =>
  Effect.gen(function* () {
    const bytes = yield* (yield* Ids).bytes(8)
    const chars = [...bytes].map((b) => ALPHABET[b % ALPHABET.length]).join("")
    const record: AgentDeviceCodeRecord = {
      id: `GRID-AGENT-${chars.slice(0, 4)}-${chars.slice(4)}`,
      platformId,
      agentId,
      expiresAt: rfc3339(now + AGENT_DEVICE_CODE_LIFETIME_MS),
      createdAt: rfc3339(now)
    }
    yield* (yield* Store).put(AgentDeviceCodes, SERVER_SCOPE, record)
    return record
  })

/** The code of this platform, else 404 (another platform's code is not found, not forbidden). */
const loadCode = (platformId: string, code: string) =>
  Effect.gen(function* () {
    const found = CODE.test(code) ? yield* (yield* Store).get(AgentDeviceCodes, SERVER_SCOPE, code) : Option.none()
    if (Option.isNone(found) || found.value.platformId !== platformId) return yield* Effect.fail(codeNotFound(code))
    return found.value
  })

/** Whom a device code belongs to: how `POST /agents/device-codes/{code}/redeem` finds its platform without credentials. */
export const platformOfDeviceCode = (code: string) =>
  Effect.gen(function* () {
    const store = yield* Store
    const found = CODE.test(code) ? yield* store.get(AgentDeviceCodes, SERVER_SCOPE, code) : Option.none()
    const platform = Option.isSome(found) ? yield* store.get(Platforms, SERVER_SCOPE, found.value.platformId) : Option.none()
    if (Option.isNone(platform)) return yield* Effect.fail(codeNotFound(code))
    return platform.value
  })

/** Removes every device code and credential of an agent, in the caller's transaction. */
export const revokeAgentAccess = (agentId: string, keepCodes = false) =>
  Effect.gen(function* () {
    const store = yield* Store
    if (!keepCodes) for (const c of yield* store.findBy(AgentDeviceCodes, SERVER_SCOPE, "agentId", agentId)) yield* store.remove(AgentDeviceCodes, SERVER_SCOPE, c.id)
    for (const c of yield* store.findBy(AgentCredentials, SERVER_SCOPE, "agentId", agentId)) yield* store.remove(AgentCredentials, SERVER_SCOPE, c.id)
  })

/**
 * POST /agents/{agentId}/device-codes (201): a new code, the earlier unredeemed ones removed (they
 * no longer redeem, and their status is 404). An agent holding a live credential is refused with
 * 409: the credential stays valid, and reinstalling is deleting and creating the agent (DECISIONS
 * #372). One without (imported from a state document) gets a code, which replaces nothing.
 */
export const regenerateDeviceCode = (platform: PlatformRecord, agentId: string) =>
  Effect.flatMap(Store, (store) =>
    store.transaction(
      Effect.gen(function* () {
        const agent = yield* loadAgent(platform, agentId)
        // Connected means holding a live credential: an agent imported from a state document has none here.
        const [credential] = yield* store.findBy(AgentCredentials, SERVER_SCOPE, "agentId", agent.id)
        if (agent.isConnected && credential !== undefined)
          return yield* new Conflict({ message: `Agent ${agent.id} is already connected; delete it and create a new one to reinstall`, details: { reason: "AGENT_ALREADY_CONNECTED", agentId: agent.id } })
        for (const c of yield* store.findBy(AgentDeviceCodes, SERVER_SCOPE, "agentId", agent.id))
          if (c.redeemedAt === undefined) yield* store.remove(AgentDeviceCodes, SERVER_SCOPE, c.id)
        return deviceCodeView(yield* issueDeviceCode(platform.id, agent.id, yield* Clock.currentTimeMillis))
      })
    )
  )

/** GET /agents/device-codes/{code}/status: whether it was redeemed (an expired code reads as not redeemed). */
export const deviceCodeStatus = (platform: PlatformRecord, code: string) =>
  Effect.map(loadCode(platform.id, code), (c) => ({ code: c.id, redeemed: c.redeemedAt !== undefined }))

const refuseCode = (code: string, reason: string, message: string) => new InvalidInput({ message, details: { code, reason } })

/**
 * POST /agents/device-codes/{code}/redeem: once, atomically (the code is marked redeemed in the
 * transaction that issues the credential, so of two concurrent redemptions one gets 400). A used
 * or expired code is 400 with the reason; redeeming connects the agent and replaces any earlier
 * credential of it.
 */
export const redeemDeviceCode = (platform: PlatformRecord, code: string) =>
  Effect.gen(function* () {
    const store = yield* Store
    const secret = Buffer.from(yield* (yield* Ids).bytes(AGENT_ACCESS_TOKEN_BYTES)).toString("hex")
    const accessToken = `gat_${secret}`
    return yield* store.transaction(
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const c = yield* loadCode(platform.id, code)
        if (c.redeemedAt !== undefined) return yield* refuseCode(c.id, "DEVICE_CODE_ALREADY_REDEEMED", "This device code was already redeemed")
        if (Date.parse(c.expiresAt) <= now) return yield* refuseCode(c.id, "DEVICE_CODE_EXPIRED", `This device code expired at ${c.expiresAt}; regenerate one`)
        const agent = yield* loadAgent(platform, c.agentId)
        const at = rfc3339(now)
        yield* store.put(AgentDeviceCodes, SERVER_SCOPE, { ...c, redeemedAt: at })
        yield* revokeAgentAccess(agent.id, true)
        yield* store.put(AgentCredentials, SERVER_SCOPE, { id: sha256Hex(accessToken), platformId: platform.id, agentId: agent.id, createdAt: at })
        const connected: AgentRecord = { ...agent, isConnected: true, updatedAt: at }
        yield* store.put(Agents, platform.id, connected)
        return { agentId: agent.id, agentName: agent.name, accessToken, policy: agent.policy }
      })
    )
  })

/** What an agent's Bearer credential names: the agent and its platform. */
export interface AgentPrincipal {
  readonly platform: PlatformRecord
  readonly agent: AgentRecord
}

// `scheme` tells the HTTP adapter to challenge with Bearer rather than Basic.
const agentRefused = (reason: string) => new Unauthorized({ message: "Invalid or missing agent credentials", details: { reason, scheme: "Bearer" } })

/** 401 for an agent route: no credential, one that is not a Bearer agent token, or one that names no agent now. */
export const agentCredentialsRefused = (reason: "MISSING_CREDENTIALS" | "MALFORMED_CREDENTIALS" | "INVALID_CREDENTIALS") => agentRefused(reason)

/**
 * The agent an access token names, as stored now: a deleted agent's token, one of a platform that
 * reset its sandbox, or one replaced by a later redemption authenticates nobody (401).
 */
export const authenticateAgent = (accessToken: string) =>
  Effect.gen(function* () {
    if (!TOKEN.test(accessToken)) return yield* Effect.fail(agentRefused("MALFORMED_CREDENTIALS"))
    const store = yield* Store
    const digest = sha256Hex(accessToken)
    const credential = yield* store.get(AgentCredentials, SERVER_SCOPE, digest)
    if (Option.isNone(credential) || !constantTimeEqual(Buffer.from(credential.value.id, "hex"), Buffer.from(digest, "hex")))
      return yield* Effect.fail(agentRefused("INVALID_CREDENTIALS"))
    const platform = yield* store.get(Platforms, SERVER_SCOPE, credential.value.platformId)
    const agent = Option.isSome(platform) ? yield* store.get(Agents, platform.value.id, credential.value.agentId) : Option.none()
    if (Option.isNone(platform) || Option.isNone(agent)) return yield* Effect.fail(agentRefused("INVALID_CREDENTIALS"))
    return { platform: platform.value, agent: agent.value } satisfies AgentPrincipal
  })

/** The Bearer token of an `Authorization` header, if it is one. */
export const bearerToken = (authorization: string | undefined): string | undefined => {
  if (authorization === undefined) return undefined
  const m = /^Bearer[ ]+([^ ]+)[ ]*$/i.exec(authorization)
  return m === null ? undefined : m[1]
}
