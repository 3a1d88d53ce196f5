import { type Effect, Schema } from "effect"
import {
  BusinessCreate,
  BusinessUpdate,
  createCustomer,
  deleteCustomer,
  type EngineServices,
  getCustomer,
  IndividualCreate,
  IndividualUpdate,
  listCustomerInternalAccounts,
  listCustomers,
  listPlatformInternalAccounts,
  type PlatformRecord,
  updateCustomer,
  walletHeaders
} from "@tessera/core"
import { clockRoutes, stateRoutes } from "./sandbox-routes.ts"
import { walletRoutes } from "./wallet-routes.ts"
import { externalAccountRoutes } from "./external-account-routes.ts"

/** What a route handler receives: the authenticated platform and the decoded request parts. */
export interface RouteContext {
  readonly platform: PlatformRecord
  readonly params: Readonly<Record<string, string>>
  readonly query: Readonly<Record<string, string>>
  readonly body: unknown
  readonly header: (name: string) => string | undefined
}

export interface Route {
  readonly method: "GET" | "POST" | "PATCH" | "DELETE" | "PUT"
  /** Path under the versioned base, with `{param}` segments, as in the reference OpenAPI. */
  readonly path: string
  /** The reference's operationId (Tessera's own start with `tessera.`), as the served document lists it. */
  readonly operationId: string
  /** Status of a successful answer. */
  readonly status: number
  /** One line in Tessera's words, published in the served OpenAPI document. */
  readonly summary: string
  /** The schema the operation decodes its JSON body with, published as its request body. */
  readonly body?: Schema.Schema.Any
  readonly handle: (ctx: RouteContext) => Effect.Effect<unknown, unknown, EngineServices>
}

/** The one route table. Every path here is served under `/2025-10-13`. */
export const routes: ReadonlyArray<Route> = [
  {
    method: "POST",
    path: "/customers",
    operationId: "createCustomer",
    status: 201,
    summary: "Create an individual or business customer with its embedded wallet, and the wallet's email OTP credential when it has an email",
    body: Schema.Union(IndividualCreate, BusinessCreate),
    handle: (c) => createCustomer(c.platform, c.body)
  },
  {
    method: "GET",
    path: "/customers",
    operationId: "listCustomers",
    status: 200,
    summary: "List the platform's customers in creation order, filtered and paged by cursor",
    handle: (c) => listCustomers(c.platform, c.query)
  },
  {
    method: "GET",
    path: "/customers/internal-accounts",
    operationId: "listCustomerInternalAccounts",
    status: 200,
    summary: "List the internal accounts of the platform's customers",
    handle: (c) => listCustomerInternalAccounts(c.platform, c.query)
  },
  {
    method: "GET",
    path: "/customers/{customerId}",
    operationId: "getCustomerById",
    status: 200,
    summary: "Read one customer",
    handle: (c) => getCustomer(c.platform, c.params["customerId"]!)
  },
  {
    method: "PATCH",
    path: "/customers/{customerId}",
    operationId: "updateCustomerById",
    status: 200,
    summary: "Change a customer's fields; a new email that a wallet credential is tied to takes a signed retry",
    body: Schema.Union(IndividualUpdate, BusinessUpdate),
    handle: (c) => updateCustomer(c.platform, c.params["customerId"]!, c.body, walletHeaders(c.header))
  },
  {
    method: "DELETE",
    path: "/customers/{customerId}",
    operationId: "deleteCustomerById",
    status: 200,
    summary: "Delete a customer; the answer is the customer as it was",
    handle: (c) => deleteCustomer(c.platform, c.params["customerId"]!)
  },
  {
    method: "GET",
    path: "/platform/internal-accounts",
    operationId: "listPlatformInternalAccounts",
    status: 200,
    summary: "List the platform's own internal accounts",
    handle: (c) => listPlatformInternalAccounts(c.platform, c.query)
  },
  ...walletRoutes,
  ...externalAccountRoutes,
  ...clockRoutes,
  ...stateRoutes
]

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
  const compiled = table.map(compile)
  const score = (c: Compiled) => c.segments.map((s) => (typeof s === "string" ? "1" : "0")).join("")
  compiled.sort((a, b) => (score(a) < score(b) ? 1 : score(a) > score(b) ? -1 : 0))
  return (method: string, segments: ReadonlyArray<string>): Match => {
    const allow: Array<string> = []
    let shape: string | undefined
    for (const c of compiled) {
      if (c.segments.length !== segments.length) continue
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
