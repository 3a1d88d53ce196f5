import { Schema } from "effect"
import type { Route } from "../routes.ts"
import { deviations } from "./deviations.ts"
import type { EffectJson } from "./effect-json.ts"
import { ErrorEnvelope, ownOperations, Processing } from "./own-operations.ts"
import type { JsonSchema } from "./facts-types.ts"
import { referenceFacts } from "./reference-facts.ts"

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` })

// What each status means here, said once for every operation that answers it.
const meaning: Readonly<Record<string, string>> = {
  "200": "Done",
  "201": "Created",
  "202": "A signed retry: sign `payloadToSign` with a session key of the wallet, then send the same request again with `Service-Wallet-Signature` and `Request-Id`",
  "204": "Done; no body",
  "400": "The request is invalid; `details` names every problem at once",
  "401": "Missing or wrong credentials, or a missing or invalid wallet signature",
  "404": "No such resource",
  "405": "The path exists, but not for this method (see `Allow`)",
  "409": "The resource's current state does not allow this",
  "410": "The resource was deleted",
  "413": "The body is larger than the server accepts",
  "415": "The body is not JSON",
  "424": "A step this depends on failed",
  "429": "Too many requests; `Retry-After` says when to try again",
  "500": "An internal error; nothing of the request was kept",
  "501": "Not implemented by this server",
  "4XX": "Any client error, as the error envelope"
}

const processing = "Still processing (`status: PROCESSING`): send the identical signed request again later for the outcome"

const headers: Readonly<Record<string, Record<string, unknown>>> = {
  "405": { Allow: { schema: { type: "string" } } },
  "429": { "Retry-After": { schema: { type: "integer", minimum: 1 } } }
}

/** `METHOD_NOT_ALLOWED` → `MethodNotAllowed`: the component name of an HTTP-layer error. */
const pascal = (code: string) => code.toLowerCase().replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase())

const httpLayerError = (code: string, status: number) =>
  Schema.Struct({ ...ErrorEnvelope.fields, status: Schema.Literal(status), code: Schema.Literal(code) }).annotations({
    identifier: pascal(code)
  })

/** Either the reference's body or Tessera's: `anyOf` when the reference declares one. */
const either = (declared: JsonSchema | null | undefined, added: JsonSchema): JsonSchema =>
  declared === undefined || declared === null ? added : { anyOf: [declared, added] }

/** The HTTP layer reads a body (and so may refuse it) only for methods that carry one. */
const readsBody = (route: Route) => route.method !== "GET" && route.method !== "DELETE"

const order = (status: string) => (/^\d+$/.test(status) ? Number(status) : Number(status[0]) * 100 + 99)

/**
 * The responses of one route: the reference operation's, or for Tessera's own operations their
 * own success body and the error envelope; then the deviations, on every operation they touch.
 */
export const responsesFor = (route: Route, json: EffectJson): Record<string, unknown> => {
  const id = route.operationId
  const facts = referenceFacts.operations[id]
  const out: Record<string, JsonSchema | null> = {}
  const described: Record<string, string> = {}
  if (facts !== undefined) Object.assign(out, facts.responses)
  else {
    const own = ownOperations[id]
    if (own === undefined) throw new Error(`${id}: neither a reference operation nor described in own-operations.ts`)
    out[String(route.status)] =
      "sameAs" in own.response ? (referenceFacts.operations[own.response.sameAs]?.responses["200"] ?? null) : json.output(own.response)
    out["4XX"] = json.output(ErrorEnvelope)
  }
  // Authentication answers 401 before any operation runs, and 429 to a client id throttled after wrong secrets (#128).
  out["401"] ??= ref("Error401")
  out["429"] ??= ref("Error429")
  // An API token without the operation's permission (#245).
  out["403"] ??= ref("Error403")
  for (const [status, schema] of Object.entries(deviations.addedErrorResponses[id] ?? {})) out[status] ??= ref(schema)
  if (deviations.processingOperations.has(id)) {
    // Where the reference has no 200 (its success is 201 or 204), a 200 only ever means "not yet".
    described["200"] = out["200"] === undefined ? processing : `Done, or ${processing[0]!.toLowerCase()}${processing.slice(1)}`
    out["200"] = either(out["200"], json.output(Processing))
  }
  for (const [code, status] of deviations.httpLayerCodes) {
    if ((status === 413 || status === 415) && !readsBody(route)) continue
    out[String(status)] = either(out[String(status)], json.output(httpLayerError(code, status)))
  }
  if (route.endpoint.multipart !== undefined) described["415"] = "The body is not multipart/form-data"
  return Object.fromEntries(
    Object.entries(out)
      .sort(([a], [b]) => order(a) - order(b))
      .map(([status, schema]) => [
        status,
        {
          description: described[status] ?? meaning[status] ?? `HTTP ${status}`,
          ...(headers[status] === undefined ? {} : { headers: headers[status] }),
          ...(schema === null ? {} : { content: { "application/json": { schema } } })
        }
      ])
  )
}
