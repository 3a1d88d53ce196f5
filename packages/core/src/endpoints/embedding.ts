import { Effect, type Schema } from "effect"
import { withCurrentPlatform } from "../operations/platform/platforms.ts"
import type { PlatformRecord } from "../domain/platform/platform.ts"
import type { EngineServices } from "../engine.ts"
import type { SignedHeaders } from "../signed-retry/signed-retry.ts"
import { type AnyEndpoint, invoke, NO_SIGNATURE, type PathParamNames, pathParamNames } from "./define.ts"
import { type Endpoints, endpoints } from "./table.ts"
import { authenticateAgent } from "../operations/agents/credentials.ts"

/** `"wallet-auth"` → `"walletAuth"`: the group's name in the embedding API. */
export type CamelCase<S extends string> = S extends `${infer H}-${infer T}` ? `${H}${Capitalize<CamelCase<T>>}` : S

export const camelCase = (s: string): string => s.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())

type Strings<T extends ReadonlyArray<string>> = { [K in keyof T]: string }
type Declared<X> = [NonNullable<X>] extends [never] ? false : true
type Encoded<S> = S extends Schema.Schema.Any ? Schema.Schema.Encoded<S> : never

type BodyArg<E extends AnyEndpoint> =
  Declared<E["body"]> extends false ? [] : true extends E["optionalBody"] ? [body?: Encoded<E["body"]>] : [body: Encoded<E["body"]>]
type QueryArg<E extends AnyEndpoint> = Declared<E["query"]> extends false ? [] : [query?: Encoded<E["query"]>]
type SignatureArg<E extends AnyEndpoint> = true extends E["signedRetry"] ? [signature?: SignedHeaders] : []
type IdempotencyArg<E extends AnyEndpoint> = true extends E["idempotent"] ? [options?: { readonly idempotencyKey?: string }] : []

/**
 * An endpoint as a method: its path parameters in path order, then its body (the request
 * schema's encoded type), its query, for a signed retry the signature headers' values, and for
 * an endpoint that honours `Idempotency-Key` an options object carrying the key. It
 * resolves with the program's answer (a `Reply` where a signed retry decides the status) and
 * rejects with the tagged domain error.
 */
export type EndpointMethod<E extends AnyEndpoint, K extends Kind = "promise"> = (
  ...args: [...Strings<PathParamNames<E["path"]>>, ...BodyArg<E>, ...QueryArg<E>, ...SignatureArg<E>, ...IdempotencyArg<E>]
) => K extends "promise" ? Promise<Effect.Effect.Success<ReturnType<E["run"]>>> : ReturnType<E["run"]>

/** Promises for embedders; Effects for programs that compose endpoints (property tests, benchmarks). */
export type Kind = "promise" | "effect"

/** The embedding API of a table: one namespace per group, one method per endpoint. */
export type EmbeddingApi<T extends AnyEndpoint, K extends Kind = "promise"> = {
  readonly [G in T["group"] as CamelCase<G>]: {
    readonly [E in Extract<T, { readonly group: G }> as E["name"]]: EndpointMethod<E, K>
  }
}

type Runner = (effect: Effect.Effect<unknown, unknown, EngineServices>) => unknown

/** Reads a method's arguments back into request parts, in the order `EndpointMethod` lists them. */
const partsOf = (e: AnyEndpoint, names: ReadonlyArray<string>, args: ReadonlyArray<unknown>) => {
  const params: Record<string, string> = {}
  names.forEach((name, i) => (params[name] = args[i] as string))
  let i = names.length
  const body = e.body !== undefined ? args[i++] : undefined
  const query = e.query !== undefined ? (args[i++] ?? {}) : {}
  const headers = e.signedRetry === true ? ((args[i++] as SignedHeaders | undefined) ?? NO_SIGNATURE) : NO_SIGNATURE
  const idempotencyKey = e.idempotent === true ? (args[i++] as { readonly idempotencyKey?: string } | undefined)?.idempotencyKey : undefined
  return { params, query, body, headers, idempotencyKey }
}

/** The API of one platform over a table of endpoints; `run` runs a program on the engine (or hands it back). */
export const embeddingApi = <T extends AnyEndpoint, K extends Kind = "promise">(table: ReadonlyArray<T>, run: Runner, platform: PlatformRecord): EmbeddingApi<T, K> => {
  const api: Record<string, Record<string, (...args: ReadonlyArray<unknown>) => unknown>> = {}
  for (const e of table) {
    const names = pathParamNames(e.path)
    // The platform as stored at the call: a `PATCH /config` made since the record was obtained counts (#243).
    ;(api[camelCase(e.group)] ??= {})[e.name] = (...args) => {
      const parts = partsOf(e, names, args)
      return run(withCurrentPlatform(platform, (current) => invoke(e, current, parts)))
    }
  }
  return api as unknown as EmbeddingApi<T, K>
}

/** The endpoints a platform calls (`engine.as`): all but the agents' own, which need an agent (DECISIONS #386). */
export type PlatformEndpoints = Exclude<Endpoints, { readonly group: "agents-me" }>
export const platformEndpointTable: ReadonlyArray<PlatformEndpoints> = endpoints.filter((e): e is PlatformEndpoints => e.group !== "agents-me")

/** The `/agents/me/*` endpoints (`engine.asAgent`). */
export type AgentEndpoints = Extract<Endpoints, { readonly group: "agents-me" }>
export const agentEndpointTable: ReadonlyArray<AgentEndpoints> = endpoints.filter((e): e is AgentEndpoints => e.group === "agents-me")

/**
 * The API of one agent, by its access token: every call authenticates the token first (401 once
 * the agent is deleted or its credential replaced), then runs as that agent on its platform.
 */
export const agentEmbeddingApi = <K extends Kind = "promise">(accessToken: string, run: Runner): EmbeddingApi<AgentEndpoints, K>["agentsMe"] => {
  const api: Record<string, (...args: ReadonlyArray<unknown>) => unknown> = {}
  for (const e of agentEndpointTable) {
    const names = pathParamNames(e.path)
    api[e.name] = (...args) => {
      const parts = partsOf(e, names, args)
      return run(Effect.flatMap(authenticateAgent(accessToken), ({ platform, agent }) => invoke(e, platform, { ...parts, agent })))
    }
  }
  return api as unknown as EmbeddingApi<AgentEndpoints, K>["agentsMe"]
}

/** The same methods answering the endpoints' Effect programs, to run on an engine (`engine.run`). */
export const endpointPrograms = (platform: PlatformRecord): EmbeddingApi<PlatformEndpoints, "effect"> =>
  embeddingApi<PlatformEndpoints, "effect">(platformEndpointTable, (effect) => effect, platform)
