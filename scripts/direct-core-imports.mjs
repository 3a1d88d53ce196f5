// In the CLI bundle, the adapters' and the CLI's `import { … } from "@tessera/core"` name the
// modules that declare what they import (DECISIONS #504). The core's index re-exports the whole
// engine, the endpoint table, the domain, the ports and the sandbox language; in the bundle
// esbuild wraps the core's modules in lazy initialisers (the endpoint groups are required at their
// first use, #499), and the index's initialiser runs every module it re-exports, so whatever one
// adapter imported from it, a start evaluated all of it: the state document's schemas, the
// external-account variants and their reference schemas, among others. Read as imports of the
// declaring modules, a start evaluates what it uses. The same module objects, the same bindings:
// only the modules nobody imports are left unevaluated.
//
// Where each name is declared comes from the index's own text, followed through its
// `export * from` and `export { … } from` statements (TypeScript's parser, syntax only). A name
// the index does not export, a namespace re-export, or an import this cannot read fails the
// build, naming the file.
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, resolve } from "node:path"

let typescript
const ts = () => (typescript ??= createRequire(import.meta.url)("typescript"))

const parse = (file) => ts().createSourceFile(file, readFileSync(file, "utf8"), ts().ScriptTarget.Latest, true, ts().ScriptKind.TS)
const hasExport = (node) => (ts().canHaveModifiers(node) ? ts().getModifiers(node) ?? [] : []).some((m) => m.kind === ts().SyntaxKind.ExportKeyword)

const exportsCache = new Map()
let cyclesCut = 0

/**
 * Every name `file` exports, each with the module that declares it and its name there:
 * Map<name, { file, name }>, following re-exports as ES modules do: a module's own and explicitly
 * re-exported names win over those of its `export *`, and a name two `export *` give from
 * different modules is ambiguous, so not exported. `path` holds the modules being read, to stop
 * at a cycle; each module is read once.
 */
export const declaredExports = (file, path = new Set()) => {
  const cached = exportsCache.get(file)
  if (cached !== undefined) return cached
  if (path.has(file)) {
    cyclesCut++
    return new Map()
  }
  const cutBefore = cyclesCut
  const inner = new Set(path).add(file)
  const source = parse(file)
  const fail = (node, why) => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source))
    throw new Error(`scripts/direct-core-imports.mjs: ${file}:${line + 1}: ${why}; the direct imports cannot follow it`)
  }
  const target = (node) => resolve(dirname(file), node.moduleSpecifier.text)
  const out = new Map()
  const own = (name) => out.set(name, { file, name })
  const stars = []
  for (const s of source.statements) {
    if (ts().isExportDeclaration(s)) {
      if (s.moduleSpecifier === undefined) {
        for (const e of s.exportClause.elements) own(e.name.text)
        continue
      }
      if (!s.moduleSpecifier.text.startsWith(".")) fail(s, "a re-export from another package")
      if (s.exportClause === undefined) stars.push(declaredExports(target(s), inner))
      else if (ts().isNamespaceExport(s.exportClause)) fail(s, "a namespace re-export")
      else {
        const there = declaredExports(target(s), inner)
        for (const e of s.exportClause.elements) {
          const original = (e.propertyName ?? e.name).text
          const at = there.get(original)
          if (at === undefined) fail(s, `${original} is not exported by ${s.moduleSpecifier.text}`)
          out.set(e.name.text, at)
        }
      }
    } else if (ts().isVariableStatement(s) && hasExport(s)) {
      for (const d of s.declarationList.declarations) {
        if (!ts().isIdentifier(d.name)) fail(d, "a destructured export")
        own(d.name.text)
      }
    } else if ((ts().isFunctionDeclaration(s) || ts().isClassDeclaration(s) || ts().isEnumDeclaration(s) || ts().isInterfaceDeclaration(s) || ts().isTypeAliasDeclaration(s)) && hasExport(s)) {
      if (s.name !== undefined) own(s.name.text) // else `export default`, which no import here names
    }
  }
  const fromStars = new Map()
  const ambiguous = new Set()
  for (const star of stars)
    for (const [name, at] of star) {
      if (name === "default" || out.has(name)) continue
      const seen = fromStars.get(name)
      if (seen === undefined) fromStars.set(name, at)
      else if (seen.file !== at.file || seen.name !== at.name) ambiguous.add(name)
    }
  for (const [name, at] of fromStars) if (!ambiguous.has(name)) out.set(name, at)
  // A module read while a cycle was cut below it saw part of that cycle: not kept for later readers.
  if (cyclesCut === cutBefore) exportsCache.set(file, out)
  return out
}

/**
 * The names of an import's or re-export's braces (`a, type B, c as d`): the type-only ones as
 * written after `type`, the others with their local alias. Shared with bundle-cli.mjs's
 * per-module Effect imports, which read the same braces.
 */
export const importSpecs = (list) => {
  const types = []
  const values = []
  for (const spec of list.split(",").map((x) => x.trim()).filter((x) => x !== "")) {
    if (spec.startsWith("type ")) types.push(spec.slice(5))
    else {
      const [name, alias = name] = spec.split(/\s+as\s+/)
      values.push({ name, alias })
    }
  }
  return { types, values }
}

const CORE_IMPORT = /^(import|export)\s+(type\s+)?\{([^}]*)\}\s*from\s*"@tessera\/core";?/gm

const declaringModule = (list, exportsOf, where) => {
  const files = new Set()
  for (const spec of list.split(",").map((x) => x.trim()).filter((x) => x !== "")) {
    const name = spec.split(":")[0].trim()
    const at = exportsOf.get(name)
    if (at === undefined || at.name !== name) throw new Error(`scripts/direct-core-imports.mjs: ${where} loads ${name} from "@tessera/core", whose index does not declare it under that name`)
    files.add(at.file)
  }
  if (files.size !== 1) throw new Error(`scripts/direct-core-imports.mjs: ${where} loads names declared in ${files.size} modules in one import(); load each module's names apart`)
  return JSON.stringify([...files][0])
}

// A module loaded at its first use: `const { a, b } = await import("@tessera/core")` or
// `import("@tessera/core").then(({ a, b }) => …)`.
const CORE_LOAD = /const\s*\{([^}]*)\}\s*=\s*await\s+import\("@tessera\/core"\)|import\("@tessera\/core"\)(\s*\.then\(\s*\(\s*\{([^}]*)\}\s*\))/g

/**
 * `source` (the file `where`) with each `import { … } from "@tessera/core"` (and `export { … }
 * from`) read as one statement per declaring module. Type-only names stay on a type import of the
 * index, which the compiler erases. The statement keeps its line count.
 */
export const directCoreImports = (source, exportsOf, where) => {
  const loaded = source.replace(CORE_LOAD, (text, awaited, then, thenList) =>
    awaited !== undefined ? text.replace('"@tessera/core"', declaringModule(awaited, exportsOf, where)) : `import(${declaringModule(thenList, exportsOf, where)})${then}`
  )
  const rewritten = loaded.replace(CORE_IMPORT, (statement, keyword, typeOnly, list) => {
    if (typeOnly !== undefined) return statement
    const { types, values } = importSpecs(list)
    const byModule = new Map()
    for (const { name, alias } of values) {
      const at = exportsOf.get(name)
      if (at === undefined) throw new Error(`scripts/direct-core-imports.mjs: ${where} takes ${name} from "@tessera/core", whose index does not export it`)
      const specs = byModule.get(at.file) ?? []
      specs.push(at.name === alias ? alias : `${at.name} as ${alias}`)
      byModule.set(at.file, specs)
    }
    if (byModule.size === 0 && types.length === 0) throw new Error(`scripts/direct-core-imports.mjs: ${where} imports nothing from "@tessera/core" (\`import {}\` would evaluate the whole index)`)
    const lines = [
      ...(types.length > 0 && keyword === "import" ? [`import type { ${types.join(", ")} } from "@tessera/core";`] : []),
      ...[...byModule].map(([file, specs]) => `${keyword} { ${specs.join(", ")} } from ${JSON.stringify(file)};`)
    ]
    return lines.join(" ") + "\n".repeat(statement.split("\n").length - 1)
  })
  // Whatever still names the index (a namespace import, `export *`, another quoting) would load
  // all of it at run time: refused, so that the bundle never silently differs from this rewrite.
  const left = rewritten.replace(/^import\s+type\s*\{[^}]*\}\s*from\s*"@tessera\/core";?/gm, "")
  if (/["'`]@tessera\/core["'`]/.test(left)) throw new Error(`scripts/direct-core-imports.mjs: ${where} names "@tessera/core" in a form the direct core imports do not read (only \`import { … } from\`, \`export { … } from\` and the two loads that destructure their names)`)
  return rewritten
}
