// Extracts the external-account request schemas from the reference OpenAPI into a JSON file the
// core compiles into Effect Schemas (packages/core/src/domain/external-accounts/schema-from-json.ts).
// Run after the reference changes: `node scripts/extract-reference-schemas.mjs ../shared/reference/openapi.yaml`
import { readFileSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
const require = createRequire(new URL("../test/package.json", import.meta.url))
const { parse } = require("yaml")

const doc = parse(readFileSync(process.argv[2] ?? "../shared/reference/openapi.yaml", "utf8"))
const all = doc.components.schemas
const roots = ["ExternalAccountCreateInfoOneOf", "ExternalAccountInfoOneOf"]
const out = {}
const visit = (node) => {
  if (Array.isArray(node)) return node.forEach(visit)
  if (node === null || typeof node !== "object") return
  if (typeof node.$ref === "string") {
    const name = node.$ref.replace("#/components/schemas/", "")
    if (!(name in out)) {
      out[name] = null
      out[name] = strip(all[name])
      visit(all[name])
    }
  }
  for (const v of Object.values(node)) visit(v)
}
// Keep only what validation needs.
const KEEP = new Set(["type", "properties", "required", "enum", "pattern", "minLength", "maxLength", "minimum", "maximum", "items", "allOf", "oneOf", "anyOf", "$ref", "discriminator", "format", "minItems", "maxItems", "const"])
const strip = (node) => {
  if (Array.isArray(node)) return node.map(strip)
  if (node === null || typeof node !== "object") return node
  const o = {}
  for (const [k, v] of Object.entries(node)) {
    if (k === "properties") o[k] = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, strip(s)]))
    else if (k === "discriminator") o[k] = { propertyName: v.propertyName }
    else if (KEEP.has(k)) o[k] = strip(v)
  }
  return o
}
for (const r of roots) {
  out[r] = strip(all[r])
  visit(all[r])
}
writeFileSync(new URL("../packages/core/src/domain/external-accounts/reference-schemas.json", import.meta.url), JSON.stringify(out, null, 1) + "\n")
console.log(`${Object.keys(out).length} schemas`)
