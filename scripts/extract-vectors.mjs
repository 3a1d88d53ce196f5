// Copies the known-answer vectors into the repository (test/crypto/vectors.json): each entry's
// inputs, expected outputs, id and public source, without the free-text notes.
//
// Usage: node scripts/extract-vectors.mjs <path-to-vectors.json>
import { readFileSync, writeFileSync } from "node:fs"

const source = process.argv[2]
if (source === undefined) {
  console.error("usage: node scripts/extract-vectors.mjs <path-to-vectors.json>")
  process.exit(2)
}
const OUT = "test/crypto/vectors.json"
const COMMAND = "node scripts/extract-vectors.mjs <path-to-vectors.json>"
// Prose about a vector (how it was made, why it matters), never read by a test.
const PROSE = new Set(["note", "scheme", "profile"])

const all = JSON.parse(readFileSync(source, "utf8"))
const groups = {}
let count = 0
for (const [group, entries] of Object.entries(all)) {
  if (!Array.isArray(entries)) continue // `_about` and any other prose at the top
  groups[group] = entries.map((e) => {
    if (typeof e.id !== "string" || typeof e.source !== "string") throw new Error(`${group}: every vector needs an id and a source`)
    count++
    return Object.fromEntries(Object.entries(e).filter(([k]) => !PROSE.has(k)))
  })
}

const body = Object.entries(groups)
  .map(([group, entries]) => `  ${JSON.stringify(group)}: [\n${entries.map((e) => `    ${JSON.stringify(e)}`).join(",\n")}\n  ]`)
  .join(",\n")
writeFileSync(
  new URL(`../${OUT}`, import.meta.url),
  `{\n  "generatedBy": ${JSON.stringify(`${COMMAND} (do not edit by hand)`)},\n${body}\n}\n`
)
console.log(`${OUT}: ${count} vectors in ${Object.keys(groups).length} groups`)
