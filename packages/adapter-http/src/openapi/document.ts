import { Schema } from "effect"
import type { Route } from "../routes.ts"
import { deviations } from "./deviations.ts"
import { type EffectJson, makeEffectJson } from "./effect-json.ts"
import { ownOperations } from "./own-operations.ts"
import type { JsonSchema, OperationFacts } from "./facts-types.ts"
import { referenceFacts } from "./reference-facts.ts"
import { responsesFor } from "./responses.ts"

export interface OpenApiDocument {
  readonly openapi: "3.1.0"
  readonly info: { readonly title: string; readonly version: string; readonly description: string }
  readonly servers: ReadonlyArray<{ readonly url: string }>
  readonly security: ReadonlyArray<Record<string, ReadonlyArray<string>>>
  /** By path, then lower-case method. */
  readonly paths: Record<string, Record<string, Record<string, unknown>>>
  readonly components: { readonly schemas: Record<string, JsonSchema>; readonly securitySchemes: Record<string, JsonSchema> }
  readonly "x-tessera-deviations": Record<string, unknown>
}

const DESCRIPTION = `Tessera serves this API offline, as a sandbox: customers, embedded-wallet credentials, sessions \
and signed retries, external accounts with ownership checks, and signed webhooks. Paths, operationIds and schemas \
follow the reference OpenAPI of lightsparkdev/grid-api (version 2025-10-13; Apache-2.0, Copyright 2023 Lightspark \
Group, Inc.). Where Tessera differs on purpose, the operation says so and \`x-tessera-deviations\` lists it; \
operationIds starting \`tessera.\` are Tessera's own sandbox controls. This document itself is served without \
credentials at \`openapi.json\`, beside the versioned base path.`

const notes = {
  own: "Tessera's own sandbox control: not part of the reference API.",
  processing:
    "While the operation has not settled (see the sandbox processing holds), its signed retry answers 200 " +
    '`{status: "PROCESSING", message}`; send the identical request again later for the outcome.',
  alias: (reference: string, own: string) =>
    `The wallet signature header is \`${own}\`; the reference's name, \`${reference}\`, is accepted as an alias.`
}

const pathParameters = (path: string) =>
  [...path.matchAll(/\{([^}]+)\}/g)].map((m) => ({ name: m[1]!, in: "path", required: true, schema: { type: "string" } }))

/** The reference's parameters, each renamed header published under Tessera's name and the reference's. */
const referenceParameters = (facts: OperationFacts, description: Array<string>) =>
  facts.parameters.flatMap((p) => {
    const { name, ...rest } = p
    const own = p.in === "header" ? deviations.headerNames[name] : undefined
    if (own === undefined) return [p]
    description.push(notes.alias(name, own))
    return [
      { name: own, ...rest },
      { name, ...rest, description: `Alias of \`${own}\`, as the reference names it` }
    ]
  })

/** Query parameters from an Effect struct: each field's schema, and whether it may be left out. */
const queryParameters = (fields: Schema.Struct.Fields, json: EffectJson) =>
  Object.entries(fields).map(([name, field]) => {
    const one = json.input(Schema.Struct({ [name]: field })) as { properties: Record<string, JsonSchema>; required: Array<string> }
    return { name, in: "query", required: one.required.includes(name), schema: one.properties[name]! }
  })

/**
 * A multipart endpoint's body is published as multipart/form-data, whatever schema describes its
 * fields: the reference's where it has one (its `format: binary` file fields are richer than
 * anything derived from the program's checks), else the declared body, else any object.
 */
const multipartBody = (route: Route, facts: OperationFacts | undefined, json: EffectJson) => ({
  required: facts?.requestBody?.required ?? true,
  content: {
    "multipart/form-data": {
      schema: facts?.requestBody?.schema ?? (route.body !== undefined ? json.input(route.body) : { type: "object" })
    }
  }
})

const operation = (route: Route, json: EffectJson) => {
  const id = route.operationId
  const facts = referenceFacts.operations[id]
  const description: Array<string> = []
  if (facts === undefined) description.push(notes.own)
  if (deviations.processingOperations.has(id)) description.push(notes.processing)
  const query = ownOperations[id]?.query
  const parameters =
    facts !== undefined
      ? referenceParameters(facts, description)
      : [...pathParameters(route.path), ...(query === undefined ? [] : queryParameters(query.fields, json))]
  const requestBody =
    route.endpoint.multipart !== undefined
      ? multipartBody(route, facts, json)
      : route.body !== undefined
        ? { required: facts?.requestBody?.required ?? true, content: { "application/json": { schema: json.input(route.body) } } }
        : facts?.requestBody
          ? { required: facts.requestBody.required, content: { [facts.requestBody.contentType]: { schema: facts.requestBody.schema } } }
          : undefined
  return {
    operationId: id,
    summary: route.summary,
    ...(description.length === 0 ? {} : { description: description.join(" ") }),
    ...(parameters.length === 0 ? {} : { parameters }),
    ...(requestBody === undefined ? {} : { requestBody }),
    // The agents' own routes take an agent's Bearer credential; the redemption, the code alone (DECISIONS #371, #373).
    ...(route.endpoint.auth === "agent" ? { security: [{ AgentAuth: [] }] } : route.endpoint.auth === "device-code" ? { security: [] } : {}),
    responses: responsesFor(route, json)
  }
}

const SCHEMA_REF = "#/components/schemas/"

/** Names of the component schemas a node refers to, discriminator mappings included. */
const refsOf = (node: unknown, out: Set<string>): Set<string> => {
  if (Array.isArray(node)) for (const v of node) refsOf(v, out)
  else if (node !== null && typeof node === "object")
    for (const [k, v] of Object.entries(node)) {
      if (k === "$ref" && typeof v === "string" && v.startsWith(SCHEMA_REF)) out.add(v.slice(SCHEMA_REF.length))
      else if (k === "mapping" && v !== null && typeof v === "object")
        for (const target of Object.values(v)) if (typeof target === "string" && target.startsWith(SCHEMA_REF)) out.add(target.slice(SCHEMA_REF.length))
      refsOf(v, out)
    }
  return out
}

/** The component schemas the paths use, transitively, Tessera's own beside the reference's. */
const usedSchemas = (paths: unknown, own: Record<string, JsonSchema>): Record<string, JsonSchema> => {
  const found: Record<string, JsonSchema> = {}
  const pending = [...refsOf(paths, new Set())]
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (name in found) continue
    const schema = own[name] ?? referenceFacts.schemas[name]
    if (schema === undefined) throw new Error(`no component schema ${name}`)
    found[name] = schema
    pending.push(...refsOf(schema, new Set()))
  }
  return Object.fromEntries(Object.keys(found).sort().map((k) => [k, found[k]!]))
}

/**
 * The OpenAPI 3.1 document of what this server serves, built from its route table: the
 * reference's operations as the reference states them, with Tessera's own summaries, request
 * schemas and deviations, and Tessera's own sandbox operations.
 */
export const openApiDocument = (table: ReadonlyArray<Route>, basePath: string): OpenApiDocument => {
  const json = makeEffectJson()
  const paths: Record<string, Record<string, Record<string, unknown>>> = {}
  for (const route of table) (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route, json)
  const own = json.components()
  for (const name of Object.keys(own)) if (name in referenceFacts.schemas) throw new Error(`${name} is also a reference schema`)
  return {
    openapi: "3.1.0",
    info: { title: "Tessera", version: basePath.slice(1), description: DESCRIPTION },
    // Relative to where this document is served, so a mount prefix carries over.
    servers: [{ url: `.${basePath}` }],
    security: [{ BasicAuth: [] }],
    paths,
    components: {
      schemas: usedSchemas(paths, own),
      securitySchemes: {
        BasicAuth: { ...referenceFacts.securitySchemes["BasicAuth"], description: "The platform's client id and secret: `Basic base64(id:secret)`" },
        AgentAuth: { ...referenceFacts.securitySchemes["AgentAuth"], description: "An agent's access token, from redeeming its device code: `Bearer gat_…`" }
      }
    },
    "x-tessera-deviations": {
      httpLayerCodes: Object.fromEntries(deviations.httpLayerCodes),
      noRoute: deviations.noRoute,
      anyOperationStatuses: [...deviations.anyOperationStatuses],
      ownOperationPrefix: deviations.ownOperationPrefix,
      processingOperations: [...deviations.processingOperations],
      addedErrorResponses: deviations.addedErrorResponses,
      addedErrorCodes: deviations.addedErrorCodes,
      headerNames: deviations.headerNames
    }
  }
}
