import { Effect, Option } from "effect"
import { AgentActions, Agents } from "../../domain/collections.ts"
import { isId } from "../../domain/ids.ts"
import { referenceNotFound } from "../../domain/not-found.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { Store } from "../../ports/store.ts"

// Apart from the views (views.ts), which reach quotes and transactions: an agent's credentials
// are checked on every agent request and load only the agent (DECISIONS #504).

/** The agent of this platform, else 404 (a malformed id is simply an unknown agent). */
export const loadAgent = (platform: PlatformRecord, id: string) =>
  Effect.gen(function* () {
    const found = isId("Agent", id) ? yield* (yield* Store).get(Agents, platform.id, id) : Option.none()
    if (Option.isNone(found)) return yield* Effect.fail(referenceNotFound("Agent", id))
    return found.value
  })

/** The action of this agent, else 404: another agent's action is not found, not forbidden. */
export const loadAction = (platform: PlatformRecord, agentId: string, id: string) =>
  Effect.gen(function* () {
    const found = isId("AgentAction", id) ? yield* (yield* Store).get(AgentActions, platform.id, id) : Option.none()
    if (Option.isNone(found) || found.value.agentId !== agentId) return yield* Effect.fail(referenceNotFound("AgentAction", id))
    return found.value
  })
