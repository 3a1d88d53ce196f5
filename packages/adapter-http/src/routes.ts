import type { Schema } from "effect"
import { type AnyEndpoint, endpoints } from "@tessera/core"

/** One HTTP route: an endpoint of the core's table, as the transport and the served document see it. */
export interface Route {
  readonly method: AnyEndpoint["method"]
  /** Path under the versioned base, with `{param}` segments, as in the reference OpenAPI. */
  readonly path: string
  /** The reference's operationId (Tessera's own start with `tessera.`), as the served document lists it. */
  readonly operationId: string
  /** Status of a successful answer. */
  readonly status: number
  /** One line in Tessera's words, published in the served OpenAPI document. */
  readonly summary: string
  /** The schema published as the request body; absent where the document keeps the reference's. */
  readonly body?: Schema.Schema.Any
  /** The core's endpoint this route serves. */
  readonly endpoint: AnyEndpoint
}

/**
 * `body` is read when the document is made, not here: in the CLI's bundle an endpoint's schemas
 * load its group's modules, which a start no longer evaluates (DECISIONS #499).
 */
const routeOf = (e: AnyEndpoint): Route => {
  const { method, path, operationId, status, summary } = e
  const route = { method, path, operationId, status, summary, endpoint: e }
  return e.documentBody === false || !("body" in e)
    ? route
    : Object.defineProperty(route, "body", { get: () => e.body, enumerable: true })
}

/** The route table, derived from the core's endpoint table. Every path here is served under `/2025-10-13`. */
export const routes: ReadonlyArray<Route> = endpoints.map(routeOf)

interface Compiled {
  readonly route: Route
  readonly segments: ReadonlyArray<string | { readonly param: string }>
}

const compile = (r: Route): Compiled => ({
  route: r,
  segments: r.path
    .split("/")
    .slice(1)
    .map((s) => (s.startsWith("{") ? { param: s.slice(1, -1) } : s))
})

export type Match =
  | { readonly _tag: "Found"; readonly route: Route; readonly params: Record<string, string> }
  | { readonly _tag: "MethodNotAllowed"; readonly allow: ReadonlyArray<string> }
  | { readonly _tag: "NotFound" }

/**
 * Matches a path (already split into decoded segments) against the table. Literal segments win
 * over parameters, so `/customers/internal-accounts` is never read as a customer id.
 */
export const makeMatcher = (table: ReadonlyArray<Route>) => {
  // Each route's score (1 per literal segment, 0 per parameter) is made once: recomputed in the
  // comparator it cost every start ~2-4 ms of sorting (~250 routes; DECISIONS #477). Same order.
  const scored = table.map((r) => {
    const c = compile(r)
    return { c, score: c.segments.map((s) => (typeof s === "string" ? "1" : "0")).join("") }
  })
  scored.sort((a, b) => (a.score < b.score ? 1 : a.score > b.score ? -1 : 0))
  const compiled = scored.map((s) => s.c)
  // By segment count (in the same most-literal-first order): a request is compared only with the
  // routes of its own length, a handful instead of the whole table.
  const byLength = new Map<number, Array<Compiled>>()
  for (const c of compiled) {
    const list = byLength.get(c.segments.length)
    if (list === undefined) byLength.set(c.segments.length, [c])
    else list.push(c)
  }
  const NONE: ReadonlyArray<Compiled> = []
  return (method: string, segments: ReadonlyArray<string>): Match => {
    const allow: Array<string> = []
    let shape: string | undefined
    for (const c of byLength.get(segments.length) ?? NONE) {
      const params: Record<string, string> = {}
      let ok = true
      for (let i = 0; i < segments.length; i++) {
        const s = c.segments[i]!
        if (typeof s === "string") {
          if (s !== segments[i]) {
            ok = false
            break
          }
        } else params[s.param] = segments[i]!
      }
      if (!ok) continue
      // Only routes of the first (most literal) matching shape count for 405.
      if (shape !== undefined && shape !== c.route.path) continue
      shape = c.route.path
      if (c.route.method === method) return { _tag: "Found", route: c.route, params }
      allow.push(c.route.method)
    }
    return allow.length > 0 ? { _tag: "MethodNotAllowed", allow } : { _tag: "NotFound" }
  }
}
