import { Cause, Effect, Exit } from "effect"
import {
  type DomainError,
  type Engine,
  envelopeOf,
  escalationFor,
  forbiddenFor,
  type ErrorEnvelope,
  internalErrorEnvelope,
  invoke,
  isDomainError,
  isReply,
  MethodNotAllowed,
  NO_SIGNATURE,
  NotFound,
  ServiceUnavailable,
  StoreError,
  TimeControl
} from "@tessera/core"
import { authenticateRequest, walletHeaders } from "./basic-auth.ts"
import { authenticateRoute } from "./route-auth.ts"
import { makeMatcher, type Route, routes } from "./routes.ts"
import { health } from "./health.ts"
import { logError } from "./log.ts"
import { readBody, readMultipartBody } from "./body.ts"
import { isMultipart } from "./multipart.ts"

export const BASE_PATH = "/2025-10-13"
export { DEFAULT_MAX_BODY_BYTES } from "@tessera/core"
import { DEFAULT_MAX_BODY_BYTES } from "@tessera/core"
export { malformedJson, notJson, payloadTooLarge } from "./body.ts"

// Only the multipart endpoints: a transport asks it, for a multipart body only, how much to read.
const multipartRoutes = makeMatcher(routes.filter((r) => r.endpoint.multipart !== undefined))

/**
 * How many bytes a transport reads before giving up ("too-large"): the JSON cap, or for a
 * multipart body sent to a multipart endpoint that endpoint's own cap (DECISIONS #147). `url` is
 * the request's path and query after any mount prefix.
 */
export const readCap = (options: HandlerOptions, method: string, url: string, contentType: string | undefined): number => {
  const max = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  if (!isMultipart(contentType)) return max
  const q = url.indexOf("?")
  const path = q === -1 ? url : url.slice(0, q)
  const segments = path.startsWith(BASE_PATH + "/") ? decodeSegments(path.slice(BASE_PATH.length)) : undefined
  const m = segments === undefined ? undefined : multipartRoutes(method, segments)
  return m?._tag === "Found" ? m.route.endpoint.multipart!.maxBytes : max
}

/** A request as any transport hands it over. */
export interface HttpRequest {
  readonly method: string
  /** Path and query as received, e.g. `/2025-10-13/customers?limit=5`. */
  readonly url: string
  readonly header: (name: string) => string | undefined
  /**
   * Raw bytes read with a size cap; `"too-large"` when the transport stopped reading past the cap;
   * `{ parsed }` for a value a host framework already parsed (e.g. `express.json()`'s `req.body`);
   * `"consumed"` when something else read the stream and handed nothing over.
   */
  readonly body: Uint8Array | "too-large" | "consumed" | { readonly parsed: unknown }
}

export interface HttpResponse {
  readonly status: number
  readonly headers: Record<string, string>
  /** Serialised JSON, or empty for 204. */
  readonly body: string
}

export interface RequestLogEntry {
  readonly method: string
  readonly path: string
  readonly route?: string
  readonly status: number
  readonly code?: string
  readonly platformId?: string
  readonly durationMs: number
}

export interface HandlerOptions {
  readonly maxBodyBytes?: number
  /** Structured request log sink; receives no header, body or query (they may hold secrets). */
  readonly log?: (entry: RequestLogEntry) => void
}

/** Options of a transport a host framework mounts (the node listener, the fetch handler). */
export interface MountOptions extends HandlerOptions {
  /** A path prefix the host mounts Tessera under (e.g. `/tessera`), stripped before routing. */
  readonly prefix?: string
}

// The served OpenAPI document: its module (with ~300 KB of reference facts) is loaded and the
// document built at the first request for it, then kept; it depends only on the route table.
let openapi: Promise<string> | undefined
const servedOpenApi = (_engine: Engine, respond: (res: HttpResponse) => void) => {
  openapi ??= import("./openapi/document.ts").then((m) => JSON.stringify(m.openApiDocument(routes, BASE_PATH)))
  openapi.then(
    (body) => respond({ status: 200, headers: jsonHeaders(), body }),
    (e: unknown) => {
      // Not kept: a later request tries again. Answered at once, never left hanging; said in the
      // log, as any other 500 is (in the CLI's bundle a group's modules first load here, #499).
      openapi = undefined
      logError("openapi document failed", { cause: e instanceof Error ? (e.stack ?? e.message) : String(e) })
      respond(envelopeResponse(internalErrorEnvelope()))
    }
  )
}

/** Unauthenticated operator endpoints outside the version prefix, by exact method and path. */
const operatorRoutes = new Map<string, (engine: Engine, respond: (res: HttpResponse) => void) => void>([
  ["GET /health", health(BASE_PATH.slice(1))],
  ["GET /openapi.json", servedOpenApi]
])

const JSON_TYPE = "application/json; charset=utf-8"
// A fresh literal per response: transports add headers (content-length), and on Node 20 adding
// a key to an object made by spreading is a slow path.
const jsonHeaders = (): Record<string, string> => ({ "content-type": JSON_TYPE })

/**
 * A store that could not answer (lost connection, lock held too long, retries spent) is the
 * catalogue's 503: the client may try again; nothing about the store leaks into the body.
 */
const storeUnavailable = (e: StoreError): HttpResponse =>
  errorResponse(
    new ServiceUnavailable({ message: "The store could not answer; try again", details: e.retryable ? { retryable: true } : {} })
  )

const errorResponse = (e: DomainError): HttpResponse => {
  const headers = jsonHeaders()
  // An agent route's 401 says so (DECISIONS #373): its credential is a Bearer token.
  if (e._tag === "UNAUTHORIZED") headers["www-authenticate"] = e.details?.["scheme"] === "Bearer" ? 'Bearer realm="tessera"' : 'Basic realm="tessera", charset="UTF-8"'
  if (e._tag === "METHOD_NOT_ALLOWED") headers["allow"] = e.allow.join(", ")
  if (e._tag === "RATE_LIMITED") headers["retry-after"] = String(Math.max(1, Math.ceil(e.retryAfterSeconds)))
  return { status: e.status, headers, body: JSON.stringify(envelopeOf(e)) }
}

const envelopeResponse = (env: ErrorEnvelope): HttpResponse => ({
  status: env.status,
  headers: jsonHeaders(),
  body: JSON.stringify(env)
})

const decodeSegments = (path: string): ReadonlyArray<string> | undefined => {
  // `path` starts with "/": split what follows it (one array, not a split and a copy).
  const segments = path.slice(1).split("/")
  if (!path.includes("%")) return segments
  try {
    return segments.map(decodeURIComponent)
  } catch {
    return undefined
  }
}

const parseQuery = (search: string, repeated: ReadonlyArray<string> | undefined): Record<string, string | ReadonlyArray<string>> => {
  const out: Record<string, string | Array<string>> = {}
  // The first occurrence of a repeated parameter wins, unless the endpoint lets it repeat; URLSearchParams never throws.
  for (const [k, v] of new URLSearchParams(search)) {
    const seen = out[k]
    if (seen === undefined) out[k] = v
    else if (repeated?.includes(k)) out[k] = typeof seen === "string" ? [seen, v] : [...seen, v]
  }
  return out
}

const utf8Length = (text: string) => new TextEncoder().encode(text).byteLength

/**
 * A HEAD is routed as a GET and answered with that GET's status and headers, its body's length
 * included, and no body (DECISIONS #119).
 */
const headOf = (res: HttpResponse): HttpResponse =>
  res.status === 204 ? res : { ...res, headers: { ...res.headers, "content-length": String(utf8Length(res.body)) }, body: "" }

/** A resource that answers GET answers HEAD too. */
const withHead = (allow: ReadonlyArray<string>): ReadonlyArray<string> =>
  allow.includes("GET") && !allow.includes("HEAD") ? [...allow, "HEAD"] : allow

/**
 * The transport-independent request pipeline: version prefix, route, Basic auth, body, then
 * one core program. Every failure becomes the error envelope; only a defect is a 500.
 */
export const makeHandler = (engine: Engine, options: HandlerOptions = {}) => {
  const match = makeMatcher(routes)
  const max = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  const log = options.log

  // One chain per request (no generator): it runs on every call, so each step shows in the benchmarks.
  // On a virtual clock another instance on the same database may have moved the time: each request
  // first reads the stored time (DECISIONS #302). On a real clock this is no step at all.
  const syncClock = Effect.flatMap(TimeControl, (c) => c.sync)
  // `seen` carries the authenticated platform's id to the request log without an Effect step of its own.
  const program = (req: HttpRequest, route: Route, params: Record<string, string>, query: Record<string, string | ReadonlyArray<string>>, seen: { platformId?: string }) =>
    Effect.flatMap(engine.options.clock === "virtual" ? Effect.zipRight(syncClock, authenticateRoute(route.endpoint, req.header("authorization"), params)) : authenticateRoute(route.endpoint, req.header("authorization"), params), (principal) => {
      // An API token's permissions are checked before the body is read (DECISIONS #245).
      const forbidden = forbiddenFor(principal, route.endpoint)
      if (forbidden !== undefined) return Effect.fail(forbidden)
      const platform = principal.platform
      const run = (body: unknown) => {
        const escalation = escalationFor(principal, route.endpoint, body)
        if (escalation !== undefined) return Effect.fail(escalation)
        // Header names are the transport's: the core gets the signature headers' values as data.
        const headers = route.endpoint.signedRetry === true ? walletHeaders(req.header) : NO_SIGNATURE
        const idempotencyKey = route.endpoint.idempotent === true ? req.header("idempotency-key") : undefined
        seen.platformId = platform.id
        return invoke(route.endpoint, platform, { params, query, body, headers, idempotencyKey, agent: principal.agent })
      }
      const multipart = route.endpoint.multipart
      if (multipart !== undefined) return Effect.flatMap(readMultipartBody(req, multipart.maxBytes), run)
      if (route.method === "GET" || route.method === "DELETE") return run(undefined)
      const read = readBody(req, max)
      return read.ok ? run(read.value) : Effect.fail(read.error)
    })

  return (req: HttpRequest, respond: (res: HttpResponse) => void): void => {
    const started = performance.now()
    const q = req.url.indexOf("?")
    const path = q === -1 ? req.url : req.url.slice(0, q)
    const method = req.method === "HEAD" ? "GET" : req.method
    const done = (res: HttpResponse, extra: { route?: string; platformId?: string } = {}) => {
      respond(req.method === "HEAD" ? headOf(res) : res)
      if (log !== undefined) {
        const code = res.status >= 400 ? (JSON.parse(res.body) as ErrorEnvelope).code : undefined
        log({
          method: req.method,
          path,
          ...extra,
          status: res.status,
          ...(code === undefined ? {} : { code }),
          durationMs: Math.round((performance.now() - started) * 1000) / 1000
        })
      }
    }
    const notFound = () => errorResponse(new NotFound({ message: `No route for ${req.method} ${path}`, details: {} }))
    if (!path.startsWith(BASE_PATH + "/")) {
      // Only outside the version prefix: API requests never pay for the lookup.
      const operator = operatorRoutes.get(`${method} ${path}`)
      return operator !== undefined ? operator(engine, (res) => done(res, { route: path })) : done(notFound())
    }
    const segments = decodeSegments(path.slice(BASE_PATH.length))
    if (segments === undefined) return done(notFound())
    const m = match(method, segments)
    if (m._tag !== "Found") {
      // Unknown routes still need credentials first, so the API's shape is not probed anonymously.
      // Through runReport, like every route: synchronous on a synchronous store, and still
      // answered (never a 500) when the store is asynchronous.
      return engine.runReport(authenticateRequest(req.header("authorization")), (auth) => {
        if (Exit.isFailure(auth)) {
          const e = Cause.failureOption(auth.cause)
          if (e._tag === "Some") return done(e.value instanceof StoreError ? storeUnavailable(e.value) : errorResponse(e.value))
          logError("unhandled defect", { route: path, cause: Cause.pretty(auth.cause) })
          return done(envelopeResponse(internalErrorEnvelope()))
        }
        return done(
          m._tag === "NotFound"
            ? notFound()
            : errorResponse(
                new MethodNotAllowed({
                  message: `${req.method} is not allowed on ${path}`,
                  details: { allow: withHead(m.allow) },
                  allow: withHead(m.allow)
                })
              )
        )
      })
    }
    const route = m.route
    const seen: { platformId?: string } = {}
    // Most requests carry no query: no URLSearchParams for them.
    const query = q === -1 ? {} : parseQuery(req.url.slice(q + 1), route.endpoint.repeatedQuery)
    engine.runReport(program(req, route, m.params, query, seen), (exit) => {
        if (Exit.isSuccess(exit)) {
          const value = exit.value
          const platformId = seen.platformId
          // Signed-retry endpoints decide their own status (202, 201, 204, 200 PROCESSING).
          const status = isReply(value) ? value.status : route.status
          const body = isReply(value) ? value.body : value
          return done(
            status === 204
              ? { status: 204, headers: {}, body: "" }
              : { status, headers: jsonHeaders(), body: JSON.stringify(body) },
            platformId === undefined ? { route: route.path } : { route: route.path, platformId }
          )
        }
        const failure = Cause.failureOption(exit.cause)
        if (failure._tag === "Some" && isDomainError(failure.value)) return done(errorResponse(failure.value), { route: route.path })
        if (failure._tag === "Some" && failure.value instanceof StoreError) {
          logError("store unavailable", { route: route.path, message: failure.value.message, retryable: failure.value.retryable })
          return done(storeUnavailable(failure.value), { route: route.path })
        }
        // A defect: log the fact, never the request, and answer the generic 500 envelope.
        logError("unhandled defect", { route: route.path, cause: Cause.pretty(exit.cause) })
        return done(envelopeResponse(internalErrorEnvelope()), { route: route.path })
    })
  }
}
