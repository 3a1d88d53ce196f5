// One esbuild bundle of the CLI (packages/cli/src/cli-entry.ts and everything it imports but
// better-sqlite3), for the two places that start the CLI fast: the dev runner in a checkout
// (scripts/dev-cli.mjs) and the published `tessera` package (scripts/pack-all.mjs). Loading ~300
// separate ES modules (Effect's among them) costs about twice the bundle's start time.
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const packages = join(dirname(dirname(fileURLToPath(import.meta.url))), "packages")

/**
 * `sqlite` says how the bundle imports the native SQLite binding, which must stay outside it (it
 * loads its .node file relative to itself): "package" keeps the bare `better-sqlite3` import
 * (the published CLI depends on it), a file path imports that exact file (the dev runner).
 */
export const bundleCli = async ({ outfile, sqlite }) => {
  const { build } = await import("esbuild")
  await build({
    entryPoints: [join(packages, "cli", "src", "cli-entry.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile,
    // pg's optional native binding and its Cloudflare socket are loaded only when asked for.
    external: [...(sqlite === "package" ? ["better-sqlite3"] : []), "pg-native", "cloudflare:sockets"],
    plugins:
      sqlite === "package"
        ? []
        : [{ name: "better-sqlite3-by-path", setup: (b) => b.onResolve({ filter: /^better-sqlite3$/ }, () => ({ path: pathToFileURL(sqlite).href, external: true })) }],
    banner: { js: "import { createRequire as __tesseraRequire } from 'node:module'; const require = __tesseraRequire(import.meta.url);" },
    logLevel: "warning"
  })
}
