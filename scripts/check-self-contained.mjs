// Fails when a tracked file refers to a folder outside the repository: the reference material
// the project was built from lives in the repository (as generated, prose-free extracts), so a
// clone alone must build, test and document itself.
//
// Usage: node scripts/check-self-contained.mjs   (exit 1 lists file:line of every reference)
import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))

// Each pattern is assembled from pieces, so this file's own text never matches it.
const patterns = [
  { what: "a sibling shared folder", re: new RegExp(["\\.\\.", "shared\\b"].join("/")) },
  { what: "the shared reference material", re: new RegExp(["\\bshared", "(reference|vectors|spec|design)\\b"].join("/")) },
  { what: "the shared-folder variable", re: new RegExp(["TESSERA", "SHARED"].join("_")) },
  { what: "an absolute workspace path", re: new RegExp(["(^|[^\\w.])", "work", ""].join("/")) }
]

const files = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" }).split("\0").filter((f) => f !== "")
const found = []
for (const file of files) {
  let text
  try {
    text = readFileSync(join(root, file), "utf8")
  } catch {
    continue // listed but deleted in the work tree
  }
  if (text.includes("\0")) continue // binary
  text.split("\n").forEach((line, i) => {
    const what = patterns.filter((p) => p.re.test(line)).map((p) => p.what)
    if (what.length > 0) found.push(`${file}:${i + 1}: ${what.join(", ")}: ${line.trim().slice(0, 160)}`)
  })
}
if (found.length > 0) {
  console.log(found.join("\n"))
  console.log(`${found.length} reference(s) to folders outside the repository`)
  process.exit(1)
}
console.log(`self-contained: ${files.length} tracked files refer to nothing outside the repository`)
