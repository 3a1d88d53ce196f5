import { Schema } from "effect"
import { referenceSchemaData } from "./reference-schemas.ts"

/**
 * Compiles the reference's JSON Schemas for external accounts (extracted by
 * `scripts/extract-reference-schemas.mjs`) into Effect Schemas, so the 40-odd account variants
 * are validated exactly as the reference declares them, with one FieldError per invalid field.
 * Only the subset the extract uses is supported: $ref, allOf of objects, discriminated oneOf,
 * object/string/integer/number/boolean/array, enum, pattern, min/maxLength.
 */
type Json = {
  readonly $ref?: string
  readonly type?: string
  readonly properties?: Readonly<Record<string, Json>>
  readonly required?: ReadonlyArray<string>
  readonly enum?: ReadonlyArray<string>
  readonly pattern?: string
  readonly minLength?: number
  readonly maxLength?: number
  readonly items?: Json
  readonly allOf?: ReadonlyArray<Json>
  readonly oneOf?: ReadonlyArray<Json>
  readonly discriminator?: { readonly propertyName: string }
}

const defs = referenceSchemaData as unknown as Readonly<Record<string, Json>>
export const referenceSchemas = defs

const deref = (j: Json): Json => (j.$ref === undefined ? j : deref(defs[j.$ref.replace("#/components/schemas/", "")]!))

/** An allOf of objects flattened into one object (properties and required merged, later wins). */
export const flatten = (j: Json): Json => {
  const node = deref(j)
  if (node.allOf === undefined) return node
  const parts = node.allOf.map(flatten)
  return {
    type: "object",
    properties: Object.assign({}, ...parts.map((p) => p.properties ?? {})),
    required: [...new Set(parts.flatMap((p) => p.required ?? []))]
  }
}

const cache = new Map<Json, Schema.Schema.Any>()

/** Overrides by property name: Tessera's own stricter checks (e.g. chain addresses). */
export type Overrides = Readonly<Record<string, Schema.Schema.Any>>

export const compile = (j: Json, overrides: Overrides = {}): Schema.Schema.Any => {
  const node = flatten(j)
  const hit = cache.get(node)
  if (hit !== undefined && Object.keys(overrides).length === 0) return hit
  const out = build(node, overrides)
  if (Object.keys(overrides).length === 0) cache.set(node, out)
  return out
}

const build = (node: Json, overrides: Overrides): Schema.Schema.Any => {
  if (node.oneOf !== undefined) return Schema.Union(...node.oneOf.map((m) => compile(m, overrides)))
  if (node.enum !== undefined) return Schema.Literal(...node.enum)
  switch (node.type) {
    case "object": {
      const required = new Set(node.required ?? [])
      const fields: Record<string, Schema.Schema.Any | Schema.PropertySignature.Any> = {}
      for (const [name, prop] of Object.entries(node.properties ?? {})) {
        const s = overrides[name] ?? compile(prop, overrides)
        fields[name] = required.has(name) ? s : Schema.optionalWith(s, { exact: true })
      }
      return Schema.Struct(fields)
    }
    case "string": {
      let s: Schema.Schema<string> = Schema.String
      if (node.minLength !== undefined) s = s.pipe(Schema.minLength(node.minLength))
      if (node.maxLength !== undefined) s = s.pipe(Schema.maxLength(node.maxLength))
      if (node.pattern !== undefined) s = s.pipe(Schema.pattern(new RegExp(node.pattern)))
      return s
    }
    case "integer":
      return Schema.Int
    case "number":
      return Schema.Number
    case "boolean":
      return Schema.Boolean
    case "array":
      return Schema.Array(compile(node.items ?? {}, overrides))
    default:
      return Schema.Unknown
  }
}
