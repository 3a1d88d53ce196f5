// In the CLI bundle, each group of endpoints (with the operations and domain modules only it
// reaches) is evaluated at its first use, not at every start (DECISIONS #499).
//
// The endpoint table (packages/core/src/endpoints/table.ts) spreads every group's array, so
// evaluating it evaluated every group: its endpoints' schemas, its operations, their domain
// schemas. The router needs only each endpoint's method, path and flags to start. So the build
// evaluates the real table once (`endpointManifest`), keeps each endpoint's data and where it is
// declared, and the bundle gets a table of stand-ins in its place (`withLazyEndpointGroups`): the
// same data, with `run`, `query` and `body` loading the declaring module at their first use
// (esbuild wraps a module reached by `require` so that it is evaluated when first required).
// Packages used as libraries are unchanged: only the CLI bundle gets the stand-ins.
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import { isDeepStrictEqual } from "node:util"
import vm from "node:vm"

const TABLE = /[\\/]packages[\\/]core[\\/]src[\\/]endpoints[\\/]table\.ts$/

/** The modules the table spreads, as written in its imports (`./customers.ts`, …). */
const groupModules = (tableSource) => [...tableSource.matchAll(/^import \{[^}]*\} from "(\.\/[^"]+)"/gm)].map((m) => m[1])

/**
 * Every endpoint of the table, in order: its data (all but `run`, `query` and `body`), whether it
 * declares a query and a body, and where it is declared (module, exported array, index). Made by
 * bundling and evaluating the table itself, so it cannot drift from the declarations.
 */
export const endpointManifest = async (build, root) => {
  const dir = join(root, "packages", "core", "src", "endpoints")
  const files = groupModules(readFileSync(join(dir, "table.ts"), "utf8"))
  const probe = `
import { endpoints } from "./table.ts"
${files.map((f, i) => `import * as m${i} from ${JSON.stringify(f)}`).join("\n")}
const modules = [${files.map((f, i) => `[${JSON.stringify(f)}, m${i}]`).join(", ")}]
const declared = (e) => {
  for (const [file, m] of modules) for (const [name, value] of Object.entries(m)) if (Array.isArray(value) && value.includes(e)) return [file, name, value.indexOf(e)]
  throw new Error("scripts/lazy-endpoint-groups.mjs: " + e.operationId + " is in the table but in none of the arrays its modules export")
}
module.exports = endpoints.map((e) => {
  const { run, query, body, ...data } = e
  return { data, query: query !== undefined, body: body !== undefined, declared: declared(e) }
})
`
  const result = await build({
    stdin: { contents: probe, resolveDir: dir, sourcefile: "endpoint-manifest.ts", loader: "ts" },
    absWorkingDir: root,
    bundle: true,
    platform: "node",
    format: "cjs",
    write: false,
    logLevel: "warning"
  })
  const module = { exports: {} }
  vm.runInThisContext(`(function (exports, require, module) {${result.outputFiles[0].text}\n})`)(module.exports, createRequire(join(dir, "table.ts")), module)
  // The stand-ins carry the data as JSON: a value JSON would change or refuse (a function,
  // undefined, a BigInt) fails the build, naming the endpoint and the field.
  for (const { data } of module.exports)
    for (const [field, value] of Object.entries(data)) {
      let carried
      try {
        carried = JSON.parse(JSON.stringify({ value })).value
      } catch {
        carried = Symbol("refused")
      }
      if (!isDeepStrictEqual(carried, value))
        throw new Error(`scripts/lazy-endpoint-groups.mjs: ${data.operationId} declares a ${field} JSON cannot carry; the stand-ins need revisiting`)
    }
  return module.exports
}

/**
 * The table the bundle gets: one stand-in per endpoint, carrying its data; its `query` and `body`
 * (where declared) and its `run` reach the declared endpoint, requiring its module the first time.
 */
const lazyTable = (manifest) => {
  const files = [...new Set(manifest.map((e) => e.declared[0]))]
  const lines = [
    "const declaredIn = (load) => { let m; return () => (m ??= load()) }",
    "const standIn = (data, query, body, declared) => {",
    "  let e",
    "  const real = () => (e ??= declared())",
    "  const standIn = { ...data, run: (request) => real().run(request) }",
    "  if (query) Object.defineProperty(standIn, \"query\", { get: () => real().query, enumerable: true })",
    "  if (body) Object.defineProperty(standIn, \"body\", { get: () => real().body, enumerable: true })",
    "  return standIn",
    "}",
    ...files.map((f, i) => `const m${i} = declaredIn(() => require(${JSON.stringify(f)}))`),
    "export const endpoints = ["
  ]
  for (const { data, query, body, declared: [file, name, index] } of manifest)
    lines.push(`  standIn(${JSON.stringify(data)}, ${query}, ${body}, () => m${files.indexOf(file)}().${name}[${index}]),`)
  lines.push("]")
  return lines.join("\n")
}

/** The esbuild plugin putting `lazyTable(manifest)` in the endpoint table's place. */
export const withLazyEndpointGroups = (manifest) => ({
  name: "lazy-endpoint-groups",
  setup: (b) => {
    b.onLoad({ filter: TABLE }, (args) => ({ contents: lazyTable(manifest), loader: "js", resolveDir: join(args.path, "..") }))
  }
})
