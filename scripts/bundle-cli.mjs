// One esbuild bundle of the CLI (packages/cli/src/cli-entry.ts and everything it imports but
// better-sqlite3), for the two places that start the CLI fast: the dev runner in a checkout
// (scripts/dev-cli.mjs) and the published `tessera` package (scripts/pack-all.mjs). Loading ~300
// separate ES modules (Effect's among them) costs about twice the bundle's start time.
import { createHash } from "node:crypto"
import { mkdirSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

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
 * Builds the bundle into `outfile`: CommonJS, so that packages/cli/bin/run-bundle.mjs can compile
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
  const result = await build({
    entryPoints: [join(packages, "cli", "src", "cli-entry.ts")],
    absWorkingDir: root,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    charset: "ascii",
    outfile,
    write: false,
    metafile: true,
    // pg's optional native binding and its Cloudflare socket are loaded only when asked for.
    external: [...(sqlite === "package" ? ["better-sqlite3"] : []), "pg-native", "cloudflare:sockets"],
    plugins: [
      withoutFastCheck,
      ...(sqlite === "package" ? [] : [withSqliteAddon(sqlite)])
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
  const code = `${listSources ? `// tessera-sources ${JSON.stringify(sources)}\n` : ""}${result.outputFiles[0].text}`
  // A fresh clone has no dev/ folder yet (esbuild made it when it wrote the file itself).
  mkdirSync(dirname(outfile), { recursive: true })
  writeFileSync(outfile, `// tessera-bundle ${createHash("sha256").update(code).digest("hex")}\n${code}`)
  return { metafile: result.metafile, sources }
}
