import { JSONSchema, type Schema } from "effect"
import type { JsonSchema } from "./facts-types.ts"

/** Prefix of the component names Tessera's own schemas take, so none collides with the reference's. */
export const OWN_PREFIX = "Tessera"

/**
 * Effect marks `unknown` and `any` with `$id: "/schemas/unknown"` and the like; repeated in one
 * document, those ids would clash (and would change the base of any reference inside).
 */
const withoutMarkers = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(withoutMarkers)
  if (node === null || typeof node !== "object") return node
  return Object.fromEntries(
    Object.entries(node)
      .filter(([k, v]) => !(k === "$id" && typeof v === "string" && v.startsWith("/schemas/")))
      .map(([k, v]) => [k, withoutMarkers(v)])
  )
}

/**
 * Turns Effect schemas into OpenAPI 3.1 schemas whose named parts (an `identifier` annotation)
 * become `#/components/schemas/Tessera<identifier>`. `JSONSchema.make` would nest them under a
 * `$defs` whose `#/$defs/…` pointers resolve against the document root, not the schema, so
 * the lower-level `fromAST` places them in the components instead.
 */
export const makeEffectJson = () => {
  const definitions: Record<string, JSONSchema.JsonSchema7> = {}
  const convert = (schema: Schema.Schema.Any, excess: "allow" | "strict"): JsonSchema =>
    withoutMarkers(
      JSONSchema.fromAST(schema.ast, {
        definitions,
        definitionPath: `#/components/schemas/${OWN_PREFIX}`,
        target: "openApi3.1",
        additionalPropertiesStrategy: excess
      })
    ) as JsonSchema
  return {
    /** A request body or query: unknown fields are ignored by the decoders, so they are allowed. */
    input: (schema: Schema.Schema.Any) => convert(schema, "allow"),
    /** A body Tessera answers with: exactly the fields listed. */
    output: (schema: Schema.Schema.Any) => convert(schema, "strict"),
    /** The named parts met so far, as components. */
    components: (): Record<string, JsonSchema> =>
      Object.fromEntries(Object.entries(definitions).map(([name, s]) => [`${OWN_PREFIX}${name}`, withoutMarkers(s) as JsonSchema]))
  }
}

export type EffectJson = ReturnType<typeof makeEffectJson>
