// One esbuild bundle of the CLI (packages/cli/src/cli-entry.ts and everything it imports but
// better-sqlite3), for the two places that start the CLI fast: the dev runner in a checkout
// (scripts/dev-cli.cjs) and the published `tessera` package (scripts/pack-all.mjs). Loading ~300
// separate ES modules (Effect's among them) costs about twice the bundle's start time.
import { createHash } from "node:crypto"
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join, relative, sep } from "node:path"
import { fileURLToPath } from "node:url"
import { declaredExports, directCoreImports, importSpecs } from "./direct-core-imports.mjs"
import { plainSchemaConstructors } from "./effect-schema-constructors.mjs"
import { endpointManifest, withLazyEndpointGroups } from "./lazy-endpoint-groups.mjs"

const root = dirname(dirname(fileURLToPath(import.meta.url)))
const packages = join(root, "packages")

/**
 * Effect's Schema module keeps a reference to fast-check (for `Arbitrary`, test-data generators
 * derived from schemas), which drags fast-check and pure-rand (~150 KB) into every bundle that
 * decodes anything. The server never generates test data, so the bundle gets this stand-in for
 * Effect's `FastCheck` module instead: the one name Effect's code reaches statically, failing
 * loudly if anything ever calls it. (Users of the packages are unaffected: this is the CLI bundle only.)
 */
const NO_FAST_CHECK = `
const absent = () => { throw new Error("fast-check is not part of the tessera CLI bundle (scripts/bundle-cli.mjs)") }
export const array = absent
`

export const withoutFastCheck = {
  name: "effect-without-fast-check",
  setup: (b) => {
    b.onResolve({ filter: /^\.\/FastCheck\.js$/ }, (args) =>
      /[\\/]effect[\\/]dist[\\/]esm$/.test(args.resolveDir) ? { path: "effect-fast-check", namespace: "tessera-stub" } : undefined
    )
    b.onLoad({ filter: /.*/, namespace: "tessera-stub" }, () => ({ contents: NO_FAST_CHECK, loader: "js" }))
  }
}

/**
 * Effect's schema classes (`Schema.Class`, `TaggedClass`, `TaggedError`) build their schemas when
 * the class is defined: a tagged class extends its fields' struct with its `_tag` (a new struct
 * schema), and every class then annotates it five times (what its constructor validates with,
 * what its `ast` and `toString` show). The error catalogue alone defines 84 such classes at load,
 * most of which a process never constructs. In the bundle, `makeClass` builds these at the
 * class's first use instead (memoised per class): the same schemas from the same inputs, so a
 * class behaves as before and pays for its schemas when it is first constructed, decoded or
 * encoded. Each replaced text must occur as often as expected, so an Effect whose code differs
 * fails the build rather than ship half a patch (DECISIONS #461).
 */
const CLASS_START = "const makeClass = ({\n"
const CLASS_END = "\n  return klass;\n};\n"
const CLASS_SIDES_START = "  const typeSchema_ = typeSchema(schema);\n"
const CLASS_SIDES_END = "  const fallbackInstanceOf ="
const replaceCounted = (text, from, to, count = 1, patch = "Effect's Schema.js, the lazy class schemas") => {
  const parts = text.split(from)
  if (parts.length !== count + 1) throw new Error(`scripts/bundle-cli.mjs: ${patch}: ${parts.length - 1} times ${JSON.stringify(from)}, expected ${count}; the patch needs revisiting`)
  return parts.join(to)
}
const CLASS_REPLACEMENTS = [
  // The class's schema itself, given as a function by the tagged classes (below).
  ["  schema\n}) => {\n", "  schema: schemaArg\n}) => {\n  let schema_;\n  const schemaOf = () => schema_ ??= (isSchema(schemaArg) ? schemaArg : schemaArg());\n"],
  ["typeSchema(schema)", "typeSchema(schemaOf())"],
  ["schema.annotations(", "schemaOf().annotations(", 3],
  ["declare([schema],", "declare([schemaOf()],"],
  ["extend(schema, newSchema)", "extend(schemaOf(), newSchema)"],
  ["transformOrFail(schema,", "transformOrFail(schemaOf(),"],
  ["encodedSchema(schema)", "encodedSchema(schemaOf())"],
  // Its five annotated sides.
  ["ParseResult.is(typeSide)", "ParseResult.is(sides().typeSide)"],
  ["ParseResult.validateSync(constructorSchema)", "ParseResult.validateSync(sides().constructorSchema)"],
  ["ParseResult.encodeUnknown(typeSide)", "ParseResult.encodeUnknown(sides().typeSide)"],
  ["[AST.SurrogateAnnotationId]: declarationSurrogate.ast", "[AST.SurrogateAnnotationId]: sides().declarationSurrogate.ast"],
  ["transform(encodedSide, declaration,", "transform(sides().encodedSide, declaration,"],
  ["[AST.SurrogateAnnotationId]: transformationSurrogate.ast", "[AST.SurrogateAnnotationId]: sides().transformationSurrogate.ast"],
  ["String(encodedSide)", "String(sides().encodedSide)"]
]
export const lazyClassSchemas = (source) => {
  const start = source.indexOf(CLASS_START)
  const end = source.indexOf(CLASS_END, start)
  if (start < 0 || end < 0 || source.indexOf(CLASS_START, start + 1) >= 0) throw new Error("scripts/bundle-cli.mjs: Effect's makeClass is not as expected; the lazy class schemas need revisiting")
  let cls = source.slice(start, end)
  const sidesStart = cls.indexOf(CLASS_SIDES_START)
  const sidesEnd = cls.indexOf(CLASS_SIDES_END, sidesStart)
  if (sidesStart < 0 || sidesEnd < 0) throw new Error("scripts/bundle-cli.mjs: Effect's makeClass is not as expected; the lazy class schemas need revisiting")
  cls = `${cls.slice(0, sidesStart)}  let sides_;\n  const sides = () => sides_ ??= (() => {\n${cls.slice(sidesStart, sidesEnd)}  return { declarationSurrogate, typeSide, constructorSchema, encodedSide, transformationSurrogate };\n  })();\n${cls.slice(sidesEnd)}`
  for (const [from, to, count] of CLASS_REPLACEMENTS) cls = replaceCounted(cls, from, to, count)
  // Every remaining `schema` in makeClass must be a property key (of the classes `extend` makes).
  if (/\bschema\b(?!:)/.test(cls.replace(/\bschema: schemaArg\b/, ""))) throw new Error("scripts/bundle-cli.mjs: Effect's makeClass reads its schema somewhere the lazy class schemas do not know")
  // TaggedClass and TaggedError: the class's struct with its `_tag`, built at first use.
  const rest = replaceCounted(source.slice(end), "schema: extend(schema, Struct(newFields)),", "schema: () => extend(schema, Struct(newFields)),", 0)
  const head = replaceCounted(source.slice(0, start), "schema: extend(schema, Struct(newFields)),", "schema: () => extend(schema, Struct(newFields)),", 2)
  return head + cls + rest
}

export const withLazyClassSchemas = {
  name: "effect-lazy-class-schemas",
  setup: (b) => {
    b.onLoad({ filter: /[\\/]effect[\\/]dist[\\/]esm[\\/]Schema\.js$/ }, (args) => ({
      contents: plainSchemaConstructors(lazyClassSchemas(readFileSync(args.path, "utf8"))),
      loader: "js"
    }))
  }
}

/**
 * Effect's Utils module decides at load whether a function named `effect_internal_function` keeps
 * its frame in stack traces (JavaScriptCore's proper tail calls drop it; Effect then wraps the
 * call in try/finally), by formatting the stack of a new Error. Formatting a stack makes V8 index
 * the lines of every script on it, here the 2.5 MB bundle: ~2.4 ms of every start (DECISIONS
 * #489). The bundle runs only on Node, whose V8 has no proper tail calls, so the answer is always
 * yes and is written in. The text must occur once, or the build fails.
 */
const FRAME_PROBE = 'standard.effect_internal_function(() => new Error().stack)?.includes("effect_internal_function") === true'
export const withoutFrameProbe = {
  name: "effect-without-frame-probe",
  setup: (b) => {
    b.onLoad({ filter: /[\\/]effect[\\/]dist[\\/]esm[\\/]Utils\.js$/ }, (args) => ({
      contents: replaceCounted(readFileSync(args.path, "utf8"), FRAME_PROBE, "true", 1, "Effect's Utils.js, the frame probe"),
      loader: "js"
    }))
  }
}

/**
 * `import { Effect, Schema } from "effect"` names Effect's index module, which imports all of
 * Effect's ~360 modules (STM, Stream, Cron, …) so that it can re-export them; in a bundle each of
 * them is then evaluated at every start, though the workspace uses about half. In the bundle, each
 * such import of a workspace source is read as imports of the modules it names
 * (`import * as Schema from "effect/Schema"`): the same module objects, without the rest. The
 * names and their modules come from Effect's own index, so a name it does not export there fails
 * the build (DECISIONS #463).
 */
const effectIndex = (resolveDir) => {
  // Its ES module entry (what esbuild bundles), beside the package.json of the copy this package gets.
  const manifest = createRequire(join(resolveDir, "package.json")).resolve("effect/package.json")
  const file = join(dirname(manifest), JSON.parse(readFileSync(manifest, "utf8")).module)
  const text = readFileSync(file, "utf8")
  const names = new Map()
  for (const m of text.matchAll(/^export \* as (\w+) from "\.\/(\w+)\.js";$/gm)) names.set(m[1], { module: m[2], namespace: true })
  for (const m of text.matchAll(/^export \{([^}]*)\} from "\.\/(\w+)\.js";$/gm))
    for (const n of m[1].replace(/\/\*[\s\S]*?\*\//g, "").split(",").map((x) => x.trim()).filter((x) => x !== "")) names.set(n, { module: m[2], namespace: false })
  if (!names.has("Effect") || !names.has("Schema") || !names.has("pipe")) throw new Error(`scripts/bundle-cli.mjs: Effect's index (${file}) is not as expected; the per-module imports need revisiting`)
  return names
}
const EFFECT_IMPORT = /import\s*\{([^}]*)\}\s*from\s*"effect";?/g
export const perModuleEffectImports = (source, names, where) =>
  source.replace(EFFECT_IMPORT, (statement, list) => {
    const { types, values } = importSpecs(list)
    const imports = values.map(({ name, alias }) => {
      const found = names.get(name)
      if (found === undefined) throw new Error(`scripts/bundle-cli.mjs: ${where} imports ${name} from "effect", which Effect's index does not export as the bundle expects`)
      return found.namespace ? `import * as ${alias} from "effect/${found.module}";` : `import { ${name} as ${alias} } from "effect/${found.module}";`
    })
    // As many lines as the statement had, so the lines after it keep their numbers.
    return [...(types.length > 0 ? [`import type { ${types.join(", ")} } from "effect";`] : []), ...imports].join(" ") + "\n".repeat(statement.split("\n").length - 1)
  })

/**
 * The workspace's TypeScript sources, read through `rewrites` (each `(source, path) => source`,
 * in order) before esbuild compiles them. One plugin for all of them: esbuild takes the first
 * onLoad that answers for a file.
 */
const workspaceSources = (name, rewrites) => ({
  name,
  setup: (b) => {
    b.onLoad({ filter: /[\\/]packages[\\/][^\\/]+[\\/]src[\\/].*\.ts$/ }, (args) => {
      const source = readFileSync(args.path, "utf8")
      const rewritten = rewrites.reduce((text, rewrite) => rewrite(text, args.path), source)
      return rewritten === source ? undefined : { contents: rewritten, loader: "ts", resolveDir: dirname(args.path) }
    })
  }
})

const effectIndexes = new Map()
const perModuleEffectRewrite = (source, path) => {
  if (!source.includes('from "effect"')) return source
  // The package's folder: the last "packages/<name>" before "/src/" (a checkout may itself
  // live under a folder named src or packages).
  const pkg = /^(.*[\\/]packages[\\/][^\\/]+)[\\/]src[\\/]/.exec(path)[1]
  if (!effectIndexes.has(pkg)) effectIndexes.set(pkg, effectIndex(pkg))
  return perModuleEffectImports(source, effectIndexes.get(pkg), path)
}

let coreExports
/** The adapters' and the CLI's imports of the core's index, as imports of the declaring modules (scripts/direct-core-imports.mjs). */
const directCoreRewrite = (source, path) => {
  if (!/["'`]@tessera\/core["'`]/.test(source) || /[\\/]packages[\\/]core[\\/]/.test(path)) return source
  coreExports ??= declaredExports(join(packages, "core", "src", "index.ts"))
  return directCoreImports(source, coreExports, path)
}

export const withPerModuleEffectImports = workspaceSources("effect-per-module-imports", [perModuleEffectRewrite])

/**
 * The signature and address libraries (@noble/curves, @noble/hashes, @scure/*) load at their first
 * use in the bundle. They are needed to check a wallet's signature, an address or a key, to make a
 * TOTP secret or a mnemonic, never to start a server or answer its first requests, yet evaluating
 * them (curves and their precomputed tables) took ~6 ms of every start (DECISIONS #468, #475). A
 * workspace source's `import { a, b as c } from "@noble/…"` becomes a memoised `require` of the
 * module, which esbuild turns into a call of the module's initialiser, and each use of `a` or `c`
 * reads it from there: the same objects and functions, evaluated later. The rewrite works on the
 * syntax tree (TypeScript's parser), and fails the build for what it cannot keep lazy or keep
 * correct: a use at module load (it would load the library at the start anyway), a default or
 * namespace import, a re-export, or a local declaration of the same name. node:crypto is loaded
 * the same way: a start draws no random bytes from it (the new platform's id comes from the
 * kernel's generator, ports/ids.ts) and its secret's scrypt runs a second after the listen, so
 * loading node's ~15 crypto modules (~2 ms) waits for the first request that hashes, signs or
 * verifies (DECISIONS #521).
 */
const LAZY_LIBRARY = /^(?:@(?:noble|scure)\/|node:crypto$)/
let typescript
export const lazyLibraryImports = (source, where) => {
  if (!/from\s*"(?:@(?:noble|scure)\/|node:crypto")/.test(source)) return source
  typescript ??= createRequire(import.meta.url)("typescript")
  const ts = typescript
  const fail = (node, why) => {
    const { line } = file.getLineAndCharacterOfPosition(node.getStart(file))
    throw new Error(`scripts/bundle-cli.mjs: ${where}:${line + 1}: ${why}; the lazy library imports cannot rewrite it`)
  }
  const file = ts.createSourceFile(where, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
  const bindings = new Map()
  const edits = []
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) || !LAZY_LIBRARY.test(statement.moduleSpecifier.text)) continue
    const clause = statement.importClause
    if (clause === undefined) fail(statement, "an import for its effects only")
    if (clause.isTypeOnly) continue
    if (clause.name !== undefined || clause.namedBindings === undefined || !ts.isNamedImports(clause.namedBindings)) fail(statement, "a default or namespace import")
    const loader = `__lazyLibrary${edits.length}`
    for (const element of clause.namedBindings.elements)
      if (!element.isTypeOnly) bindings.set(element.name.text, `${loader}().${(element.propertyName ?? element.name).text}`)
    // Type-only names stay a type import; the statement keeps its line count.
    const types = clause.namedBindings.elements.filter((e) => e.isTypeOnly).map((e) => e.getText(file).replace(/^type\s+/, ""))
    const lines = "\n".repeat(statement.getText(file).split("\n").length - 1)
    edits.push([
      statement.getStart(file),
      statement.end,
      `${types.length > 0 ? `import type { ${types.join(", ")} } from ${JSON.stringify(statement.moduleSpecifier.text)}; ` : ""}let ${loader}_: any; const ${loader} = () => (${loader}_ ??= require(${JSON.stringify(statement.moduleSpecifier.text)}));${lines}`
    ])
  }
  const visit = (node, inFunction) => {
    if (ts.isImportDeclaration(node) || ts.isTypeNode(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) return
    if (ts.isIdentifier(node) && bindings.has(node.text)) {
      const parent = node.parent
      const isName = (kind) => kind(parent) && parent.name === node
      if (isName(ts.isPropertyAccessExpression) || isName(ts.isPropertyAssignment) || isName(ts.isMethodDeclaration) || isName(ts.isPropertyDeclaration)) return
      if (isName(ts.isVariableDeclaration) || isName(ts.isParameter) || isName(ts.isBindingElement) || isName(ts.isFunctionDeclaration) || isName(ts.isClassDeclaration)) fail(node, `a local ${node.text} beside the imported one`)
      if (ts.isExportSpecifier(parent)) fail(node, `a re-export of ${node.text}`)
      if (!inFunction) fail(node, `${node.text} is used when the module loads`)
      const read = bindings.get(node.text)
      edits.push([node.getStart(file), node.end, ts.isShorthandPropertyAssignment(parent) ? `${node.text}: ${read}` : read])
      return
    }
    ts.forEachChild(node, (child) => visit(child, inFunction || ts.isFunctionLike(node)))
  }
  visit(file, false)
  let out = source
  for (const [start, end, text] of edits.sort((a, b) => b[0] - a[0])) out = out.slice(0, start) + text + out.slice(end)
  return out
}

export const withLazyLibraryImports = workspaceSources("lazy-library-imports", [lazyLibraryImports])

/**
 * better-sqlite3 inside the dev bundle: its JavaScript bundled (compiled through the code cache
 * with the rest, where requiring its ~10 files took ~5 ms of every start), and its native addon
 * required by absolute path instead of through the `bindings` package, which looks for the .node
 * file by trying a dozen paths. `entry` is the package's resolved main file (lib/index.js).
 */
const withSqliteAddon = (entry) => ({
  name: "better-sqlite3-in-bundle",
  setup: (b) => {
    const addon = join(dirname(dirname(entry)), "build", "Release", "better_sqlite3.node")
    b.onResolve({ filter: /^better-sqlite3$/ }, () => ({ path: entry }))
    b.onResolve({ filter: /^bindings$/ }, (args) => (args.importer.startsWith(dirname(entry)) ? { path: "sqlite-addon", namespace: "tessera-sqlite" } : undefined))
    b.onLoad({ filter: /^sqlite-addon$/, namespace: "tessera-sqlite" }, () => ({ contents: `module.exports = () => require(${JSON.stringify(addon)})`, loader: "js" }))
    b.onResolve({ filter: /\.node$/ }, (args) => (args.path === addon ? { path: addon, external: true } : undefined))
  }
})

/**
 * The libraries no start runs (the signature and address libraries, cbor2 for passkeys, pg for
 * PostgreSQL) go into a second file beside the bundle, `tessera-libs-<hash>.cjs`, required at
 * their first use. A start reads, and deserialises the code cache of, only the bundle, and the
 * bundle's top level no longer declares those libraries' ~550 KB of modules: ~2 ms of every start
 * (DECISIONS #517). They share no state with the workspace's code (Effect stays in the bundle),
 * so two files hold them as one did. In the bundle each import of such a library is a module of
 * one line, `module.exports = require("./tessera-libs-<hash>.cjs")("<its path>")`; the second
 * file maps each path to its module's initialiser, so a library is evaluated when first asked for
 * (the lazy imports above still decide when that is). Its name carries the hash of its text, so a
 * running bundle never finds the file of another build in its place.
 */
/** What both files are: one CommonJS script for Node 20, ASCII (read as latin1), kept in memory with its metafile. */
const SCRIPT_OPTIONS = { absWorkingDir: root, bundle: true, platform: "node", format: "cjs", target: "node20", charset: "ascii", write: false, metafile: true }

const SIDE_LIBRARY = /^(?:@noble\/|@scure\/|cbor2(?:$|\/)|pg$)/
const SIDE_FILE = "__TESSERA_SIDE_LIBRARIES__"
const sameText = (file, text) => {
  try {
    return readFileSync(file, "latin1") === text
  } catch {
    return false
  }
}
export const sideLibraries = () => {
  /** Module path relative to the root → its absolute path. */
  const modules = new Map()
  const plugin = {
    name: "side-libraries",
    setup: (b) => {
      b.onResolve({ filter: SIDE_LIBRARY }, async (args) => {
        if (args.pluginData?.side === true) return undefined
        // Resolved as a `require` is: the module in the bundle is CommonJS, so a package with
        // both builds (pg) gives its CommonJS one, whose exports object is what a default import
        // of it read before the split (pg's ES module wrapper re-exports only some names).
        const found = await b.resolve(args.path, { resolveDir: args.resolveDir, kind: "require-call", importer: args.importer, pluginData: { side: true } })
        if (found.errors.length > 0) return { errors: found.errors }
        const key = relative(root, found.path).split(sep).join("/")
        modules.set(key, found.path)
        // A CommonJS module whatever the library's format: its path ends in .cjs.
        return { path: `${key}.side.cjs`, namespace: "tessera-side" }
      })
      b.onLoad({ filter: /.*/, namespace: "tessera-side" }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(`./${SIDE_FILE}`)})(${JSON.stringify(args.path.slice(0, -".side.cjs".length))})`,
        loader: "js",
        resolveDir: root
      }))
      b.onResolve({ filter: new RegExp(`^\\./${SIDE_FILE}$`) }, (args) => ({ path: args.path, external: true }))
    }
  }
  /**
   * Writes the second file beside `outfile` (when the bundle asked for any library) and returns
   * the bundle's text with that file's name in it. `mainInputs`, the bundle's metafile inputs,
   * must share no library module with the file: a second copy of a module (a workspace import
   * of `pg-types` beside pg's own) would hold state of its own.
   */
  const finish = async (build, text, outfile, mainInputs) => {
    // The modules the bundle still asks for (esbuild leaves out an import nothing uses).
    const asked = new Set([...text.matchAll(new RegExp(`require\\("\\./${SIDE_FILE}"\\)\\(("[^"]*")\\)`, "g"))].map((m) => JSON.parse(m[1])))
    if (asked.size === 0) {
      if (text.includes(SIDE_FILE)) throw new Error("scripts/bundle-cli.mjs: the bundle names the side libraries' file in a form the build does not read")
      return { text, file: undefined }
    }
    const keys = [...asked].sort()
    for (const k of keys) if (!modules.has(k)) throw new Error(`scripts/bundle-cli.mjs: the bundle asks the side libraries for ${k}, which it never resolved`)
    const entry = `const load = {\n${keys.map((k) => `  ${JSON.stringify(k)}: () => require(${JSON.stringify(modules.get(k))})`).join(",\n")}\n}\nmodule.exports = (path) => load[path]()\n`
    const result = await build({
      ...SCRIPT_OPTIONS,
      stdin: { contents: entry, resolveDir: root, sourcefile: "side-libraries.js", loader: "js" },
      // pg's optional native binding and its Cloudflare socket are loaded only when asked for.
      external: ["pg-native", "cloudflare:sockets"],
      logLevel: "warning"
    })
    const twice = Object.keys(result.metafile.inputs).filter((p) => p.includes("node_modules") && p in mainInputs)
    if (twice.length > 0) throw new Error(`scripts/bundle-cli.mjs: in both the bundle and its side libraries' file: ${twice.join(", ")}`)
    const side = result.outputFiles[0].text
    const name = `tessera-libs-${createHash("sha256").update(side).digest("hex").slice(0, 16)}.cjs`
    const file = join(dirname(outfile), name)
    mkdirSync(dirname(file), { recursive: true })
    // Written aside and renamed, as the bundle is: a starting CLI never reads half of it. The
    // same file already there is left as it is (a newer one would make the bundle look stale).
    // Files of earlier builds stay: a CLI started from an earlier bundle may still ask for one.
    if (!sameText(file, side)) {
      const aside = `${file}.${process.pid}.tmp`
      writeFileSync(aside, side)
      renameSync(aside, file)
    }
    const named = text.split(SIDE_FILE)
    // Every reference is one the lookup above read, or the bundle would ask for a file that is not there.
    const references = [...text.matchAll(new RegExp(`require\\("\\./${SIDE_FILE}"\\)\\("[^"]*"\\)`, "g"))].length
    if (named.length - 1 !== references) throw new Error(`scripts/bundle-cli.mjs: the bundle names the side libraries' file ${named.length - 1} times, ${references} of them in a form the build reads`)
    return { text: named.join(name), file }
  }
  return { plugin, finish }
}

/** How the CLI bundle's code begins, after its header lines: it is one function expression, called with CommonJS's module arguments. */
export const BUNDLE_START = "(function (exports, require, module, __filename, __dirname) {"

/**
 * Builds the bundle into `outfile`: CommonJS, so that packages/cli/bin/run-bundle.cjs can compile
 * it as a script with V8's code cache, and ASCII, so that it reads as latin1. Its first line is
 * `// tessera-bundle <id>`, the SHA-256 of the rest, which ties a code cache to the bundle it came
 * from. `sqlite` says how the bundle gets better-sqlite3: "package" keeps the bare
 * `better-sqlite3` import (the published CLI depends on it); a file path (the dev runner's, that
 * package's entry in this checkout) bundles its JavaScript too and has it load the native addon
 * by absolute path (`withSqliteAddon`).
 * `listSources` adds a second line, `// tessera-sources <JSON>`, the workspace files the bundle was
 * made of (the dev runner checks their age). Returns esbuild's metafile (which modules went in,
 * and why) and that list of sources.
 */
export const bundleCli = async ({ outfile, sqlite, listSources = false }) => {
  const { build } = await import("esbuild")
  const manifest = await endpointManifest(build, root)
  const sides = sideLibraries()
  const result = await build({
    ...SCRIPT_OPTIONS,
    entryPoints: [join(packages, "cli", "src", "cli-entry.ts")],
    outfile,
    // pg, whose optional native binding and Cloudflare socket are external, is in the side file.
    external: sqlite === "package" ? ["better-sqlite3"] : [],
    plugins: [
      withLazyEndpointGroups(manifest),
      withoutFastCheck,
      withLazyClassSchemas,
      withoutFrameProbe,
      workspaceSources("workspace-sources", [directCoreRewrite, perModuleEffectRewrite, lazyLibraryImports]),
      ...(sqlite === "package" ? [] : [withSqliteAddon(sqlite)]),
      sides.plugin
    ],
    // The CLI reads its package.json next to the bundle's folder (src/version.ts).
    define: { "import.meta.url": "__tesseraBundleUrl" },
    banner: { js: 'var __tesseraBundleUrl = require("node:url").pathToFileURL(__filename).href;' },
    logLevel: "warning"
  })
  // A name Effect's code takes from fast-check that the stand-in lacks would be undefined at run time.
  const missing = result.warnings.filter((w) => w.text.includes("effect-fast-check"))
  if (missing.length > 0) throw new Error(`scripts/bundle-cli.mjs: Effect needs more of fast-check than the stand-in has: ${missing.map((w) => w.text).join("; ")}`)
  // The workspace sources in the bundle, relative to the root: what the dev runner compares the
  // bundle's age with (a second header line), rather than walking every package folder.
  const sources = Object.keys(result.metafile.inputs).filter((p) => p.startsWith("packages/"))
  const side = await sides.finish(build, result.outputFiles[0].text, outfile, result.metafile.inputs)
  // The side libraries' file is listed too: one that is gone (or changed) makes the bundle stale.
  const listed = side.file === undefined ? sources : [...sources, relative(root, side.file).split(sep).join("/")]
  // One function expression of CommonJS's module arguments, which run-bundle.cjs compiles as it
  // is and calls: wrapped there at each start, the new 2 MB string V8 then had to flatten before
  // it could use the code cache cost every start ~1.5 ms (DECISIONS #522). The header lines stay
  // first, so that the loader and the dev runner read them without evaluating anything.
  const code = `${listSources ? `// tessera-sources ${JSON.stringify(listed)}\n` : ""}${BUNDLE_START}${side.text}\n})\n`
  // A fresh clone has no dev/ folder yet (esbuild made it when it wrote the file itself).
  mkdirSync(dirname(outfile), { recursive: true })
  writeFileSync(outfile, `// tessera-bundle ${createHash("sha256").update(code).digest("hex")}\n${code}`)
  return { metafile: result.metafile, sources, sideFile: side.file }
}
