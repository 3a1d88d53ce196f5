import { type Effect, Schema } from "effect"
import type { AgentRecord } from "../domain/agents/agent.ts"
import type { PlatformRecord } from "../domain/platform/platform.ts"
import type { EngineServices } from "../engine.ts"
import type { SignedHeaders } from "../signed-retry/signed-retry.ts"
import type { SignedTarget } from "../signed-retry/target.ts"

/** The resource groups, named as in `domain/` and `operations/`. */
export const endpointGroups = ["customers", "internal-accounts", "external-accounts", "wallet-auth", "webhooks", "platform", "sandbox", "verifications", "beneficial-owners", "documents", "exchange-rates", "receivers", "crypto", "transactions", "quotes", "invitations", "delegated-keys", "directories", "sca", "cards", "stablecoins", "agents", "agents-me"] as const
export type EndpointGroup = (typeof endpointGroups)[number]

export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE" | "PUT"

/** The `{param}` names of a path, in order: `"/a/{x}/b/{y}"` gives `["x", "y"]`. */
export type PathParamNames<P extends string> = P extends `${string}{${infer N}}${infer Rest}` ? [N, ...PathParamNames<Rest>] : []

/** A file of a multipart/form-data body, as the transport hands it to a program. */
export interface UploadedFile {
  /** The part's `filename`, as the client sent it (never trusted for the type). */
  readonly fileName: string
  /** The part's declared content type, as the client sent it (never trusted for the type). */
  readonly contentType: string
  readonly bytes: Uint8Array
}

/**
 * The body of a multipart endpoint: its text fields (one value per name) and its files by field
 * name. The HTTP adapter parses multipart/form-data into this; an embedder passes it directly.
 */
export interface MultipartBody {
  readonly fields: Readonly<Record<string, string>>
  readonly files: Readonly<Record<string, UploadedFile>>
}

/**
 * A multipart endpoint's `body` schema: what an embedder passes (its encoded type is
 * `MultipartBody`). The program checks the fields and files itself, with every error at once.
 */
export const MultipartBodySchema: Schema.Schema<MultipartBody> = Schema.Struct({
  fields: Schema.Record({ key: Schema.String, value: Schema.String }),
  files: Schema.Record({
    key: Schema.String,
    value: Schema.Struct({ fileName: Schema.String, contentType: Schema.String, bytes: Schema.Uint8ArrayFromSelf })
  })
})

/**
 * What an endpoint's program receives: the authenticated platform and the request's parts, not
 * yet decoded (the programs decode, so JavaScript callers get the same checks as HTTP ones). A
 * signed endpoint also gets the signature headers' values and the method and concrete path its
 * signed retry binds.
 */
export type EndpointRequest<P extends string, S extends boolean> = {
  readonly platform: PlatformRecord
  readonly params: { readonly [K in PathParamNames<P>[number]]: string }
  readonly query: unknown
  readonly body: unknown
  /** The `Idempotency-Key` header's value, handed over only to an endpoint that declares `idempotent`. */
  readonly idempotencyKey?: string | undefined
  /** The agent an `auth: "agent"` endpoint was called by (its Bearer credential's, DECISIONS #373). */
  readonly agent?: AgentRecord
} & (S extends true ? { readonly headers: SignedHeaders; readonly target: SignedTarget } : unknown)

/**
 * One endpoint, declared once: the HTTP route, the served document's entry and the embedding
 * method are all derived from it. `query` and `body` are the schemas the program decodes with;
 * their encoded types are what an embedder passes.
 */
export interface Endpoint<
  G extends EndpointGroup = EndpointGroup,
  N extends string = string,
  P extends string = string,
  Q extends Schema.Schema.Any | undefined = Schema.Schema.Any | undefined,
  B extends Schema.Schema.Any | undefined = Schema.Schema.Any | undefined,
  O extends boolean = boolean,
  S extends boolean = boolean,
  A = unknown,
  I extends boolean = boolean
> {
  readonly group: G
  /** The embedding method: `engine.as(platform)[group in camelCase][name]`. */
  readonly name: N
  readonly method: HttpMethod
  /** Under the versioned base, with `{param}` segments, as in the reference OpenAPI. */
  readonly path: P
  /** The reference's operationId; Tessera's own start with `tessera.`. */
  readonly operationId: string
  /** Status of a successful answer (signed retries answer the status the protocol decides). */
  readonly status: number
  /** One line in Tessera's words, published in the served OpenAPI document. */
  readonly summary: string
  readonly query?: Q
  /**
   * Query parameters the reference lets a client repeat (`style: form, explode: true`): a repeated
   * one reaches the program as an array of its values. Of any other, the first value counts (#31).
   */
  readonly repeatedQuery?: ReadonlyArray<string>
  readonly body?: B
  /** The body may be left out. */
  readonly optionalBody?: O
  /** False when the served document keeps the reference's request schema (richer than `body`). */
  readonly documentBody?: boolean
  /** A signed-retry endpoint: its method and path are what the challenge binds. */
  readonly signedRetry?: S
  /**
   * The body is multipart/form-data, parsed by the transport into a `MultipartBody` (the
   * program still checks it), up to `maxBytes` in all.
   */
  readonly multipart?: { readonly maxBytes: number }
  /** Honours `Idempotency-Key`: the program gets its value (an embedder passes it last, as `{ idempotencyKey }`). */
  readonly idempotent?: I
  /**
   * Who may call it, when not the platform (HTTP Basic, the default): `agent`, an agent's Bearer
   * credential (the reference's AgentAuth); `device-code`, anyone holding the device code in the
   * path (the reference's `security: []` redemption, DECISIONS #371).
   */
  readonly auth?: "agent" | "device-code"
  readonly run: (request: EndpointRequest<P, S>) => Effect.Effect<A, unknown, EngineServices>
}

/** Any endpoint, as the table holds them; its program is called only through `invoke`. */
export type AnyEndpoint = Omit<Endpoint, "run"> & {
  // The program's request type depends on the endpoint's path; `invoke` builds it.
  readonly run: (request: never) => Effect.Effect<unknown, unknown, EngineServices>
}

/** Declares an endpoint, keeping its literal group, name and path and its schemas' types. */
export const endpoint = <
  const G extends EndpointGroup,
  const N extends string,
  const P extends string,
  A,
  Q extends Schema.Schema.Any | undefined = undefined,
  B extends Schema.Schema.Any | undefined = undefined,
  O extends boolean = false,
  S extends boolean = false,
  I extends boolean = false
>(
  e: Endpoint<G, N, P, Q, B, O, S, A, I>
): Endpoint<G, N, P, Q, B, O, S, A, I> => e

/** The request parts a transport (or the embedding API) hands over. */
export interface EndpointParts {
  readonly params: Readonly<Record<string, string>>
  readonly query: unknown
  readonly body: unknown
  readonly headers: SignedHeaders
  readonly idempotencyKey?: string | undefined
  readonly agent?: AgentRecord | undefined
}

export const NO_SIGNATURE: SignedHeaders = { signature: undefined, requestId: undefined }

const PARAM = /\{([^}]+)\}/g

export const pathParamNames = (path: string): ReadonlyArray<string> => [...path.matchAll(PARAM)].map((m) => m[1]!)

/** Runs an endpoint's program; a signed endpoint's target is its method and its path with the params filled in. */
export const invoke = (e: AnyEndpoint, platform: PlatformRecord, parts: EndpointParts): Effect.Effect<unknown, unknown, EngineServices> =>
  (e.run as (request: EndpointRequest<string, boolean> & Partial<EndpointRequest<string, true>>) => Effect.Effect<unknown, unknown, EngineServices>)({
    ...(e.signedRetry === true
      ? {
        platform,
        params: parts.params,
        query: parts.query,
        body: parts.body,
        headers: parts.headers,
        target: { method: e.method, path: e.path.replace(PARAM, (_, name: string) => parts.params[name] ?? "") }
      }
      : { platform, params: parts.params, query: parts.query, body: parts.body }),
    ...(e.idempotent === true ? { idempotencyKey: parts.idempotencyKey } : {}),
    ...(parts.agent === undefined ? {} : { agent: parts.agent })
  })
