/**
 * `@tessera/adapter-http/openapi`: the served OpenAPI document, the deviations it declares, and
 * the facts extracted from the reference OpenAPI. A subpath of its own so that the main entry
 * (every server and embedding) never loads the ~300 KB of reference facts; the handler imports
 * the document module only when `/openapi.json` is first asked for.
 */
export { deviations, type Deviations } from "./deviations.ts"
export { openApiDocument, type OpenApiDocument } from "./document.ts"
export { referenceFacts } from "./reference-facts.ts"
export type { JsonSchema, OperationFacts, ParameterFacts, ReferenceFacts } from "./facts-types.ts"
