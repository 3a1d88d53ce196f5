// One esbuild bundle of the CLI (packages/cli/src/cli-entry.ts and everything it imports but
// better-sqlite3), for the two places that start the CLI fast: the dev runner in a checkout
// (scripts/dev-cli.mjs) and the published `tessera` package (scripts/pack-all.mjs). Loading ~300
// separate ES modules (Effect's among them) costs about twice the bundle's start time.
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const packages = join(dirname(dirname(fileURLToPath(import.meta.url))), "packages")

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

const withoutFastCheck = {
  name: "effect-without-fast-check",
  setup: (b) => {
    b.onResolve({ filter: /^\.\/FastCheck\.js$/ }, (args) =>
      /[\\/]effect[\\/]dist[\\/]esm$/.test(args.resolveDir) ? { path: "effect-fast-check", namespace: "tessera-stub" } : undefined
    )
    b.onLoad({ filter: /.*/, namespace: "tessera-stub" }, () => ({ contents: NO_FAST_CHECK, loader: "js" }))
  }
}

/**
 * `sqlite` says how the bundle imports the native SQLite binding, which must stay outside it (it
 * loads its .node file relative to itself): "package" keeps the bare `better-sqlite3` import
 * (the published CLI depends on it), a file path imports that exact file (the dev runner).
 * Returns esbuild's metafile (which modules went in, and why), for the test that keeps test-only
 * libraries out of the start path.
 */
export const bundleCli = async ({ outfile, sqlite }) => {
  const { build } = await import("esbuild")
  const result = await build({
    entryPoints: [join(packages, "cli", "src", "cli-entry.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile,
    metafile: true,
    // pg's optional native binding and its Cloudflare socket are loaded only when asked for.
    external: [...(sqlite === "package" ? ["better-sqlite3"] : []), "pg-native", "cloudflare:sockets"],
    plugins: [
      withoutFastCheck,
      ...(sqlite === "package"
        ? []
        : [{ name: "better-sqlite3-by-path", setup: (b) => b.onResolve({ filter: /^better-sqlite3$/ }, () => ({ path: pathToFileURL(sqlite).href, external: true })) }])
    ],
    banner: { js: "import { createRequire as __tesseraRequire } from 'node:module'; const require = __tesseraRequire(import.meta.url);" },
    logLevel: "warning"
  })
  // A name Effect's code takes from fast-check that the stand-in lacks would be undefined at run time.
  const missing = result.warnings.filter((w) => w.text.includes("effect-fast-check"))
  if (missing.length > 0) throw new Error(`scripts/bundle-cli.mjs: Effect needs more of fast-check than the stand-in has: ${missing.map((w) => w.text).join("; ")}`)
  return result.metafile
}
