import { Effect } from "effect"
import { type AgentRecord, type AnyEndpoint, agentCredentialsRefused, authenticateAgent, bearerToken, platformOfDeviceCode, type Principal, type RateLimited, type ReferenceNotFound, type Store, type StoreError, type Unauthorized } from "@tessera/core"
import { authenticateRequest } from "./basic-auth.ts"

/** Who called a route: a platform's principal, and for an agent route the agent as well. */
export type RoutePrincipal = Principal & { readonly agent?: AgentRecord }

/**
 * The credentials a route takes (DECISIONS #371, #373): the platform's Basic ones by default; an
 * agent's Bearer access token on the `/agents/me/*` routes (platform credentials are no agent's:
 * 401); on the device code's redemption, the code in the path, which names its platform (an
 * unknown code is 404, as the reference answers).
 */
export const authenticateRoute = (
  endpoint: Pick<AnyEndpoint, "auth">,
  authorization: string | undefined,
  params: Readonly<Record<string, string>>
): Effect.Effect<RoutePrincipal, Unauthorized | RateLimited | ReferenceNotFound | StoreError, Store> => {
  if (endpoint.auth === undefined) return authenticateRequest(authorization)
  if (endpoint.auth === "device-code") return Effect.map(platformOfDeviceCode(params["code"] ?? ""), (platform): RoutePrincipal => ({ platform, permissions: "ALL" }))
  const token = bearerToken(authorization)
  if (token === undefined) return Effect.fail(agentCredentialsRefused(authorization === undefined ? "MISSING_CREDENTIALS" : "MALFORMED_CREDENTIALS"))
  return Effect.map(authenticateAgent(token), ({ platform, agent }): RoutePrincipal => ({ platform, permissions: "ALL", agent }))
}
