/**
 * The shape of `reference-facts.ts`, written by hand so the generator
 * (scripts/extract-openapi-facts.mjs) emits data only and the types live in one place.
 */

/** A JSON Schema (2020-12, the dialect of OpenAPI 3.1), as plain data. */
export type JsonSchema = { readonly [keyword: string]: unknown }

export interface ParameterFacts {
  readonly name: string
  readonly in: "path" | "query" | "header" | "cookie"
  readonly required: boolean
  readonly schema: JsonSchema
  readonly style?: string
  readonly explode?: boolean
}

export interface OperationFacts {
  readonly method: "get" | "put" | "post" | "delete" | "patch"
  /** Under the versioned base path, with `{param}` segments. */
  readonly path: string
  readonly parameters: ReadonlyArray<ParameterFacts>
  readonly requestBody: { readonly required: boolean; readonly contentType: string; readonly schema: JsonSchema } | null
  /** By status: the `application/json` body schema, or null for a response without a body. */
  readonly responses: Readonly<Record<string, JsonSchema | null>>
}

export interface ReferenceFacts {
  readonly version: string
  /** By operationId. */
  readonly operations: Readonly<Record<string, OperationFacts>>
  /** `components.schemas`; every `$ref` reads `#/components/schemas/<name>`. */
  readonly schemas: Readonly<Record<string, JsonSchema>>
  readonly securitySchemes: Readonly<Record<string, JsonSchema>>
}
