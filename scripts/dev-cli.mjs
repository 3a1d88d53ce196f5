#!/usr/bin/env node
// Runs the CLI of this checkout from a bundle of its TypeScript sources, rebuilt with esbuild
// whenever a source file is newer. Transpiling ~100 modules through tsx at every start cost about
// a second; the bundle starts in a fraction of that (README, "Cold start"). `pnpm start` and
// `packages/cli/bin/tessera.mjs` in a checkout come here; an installed `tessera` runs its dist/.
// `node scripts/dev-cli.mjs build` only refreshes the bundle (the root `prepare` script runs it).
import { existsSync, readdirSync, renameSync, statSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const root = dirname(dirname(fileURLToPath(import.meta.url)))
const packages = join(root, "packages")
const bundle = join(root, "packages", "cli", "dev", "tessera.mjs")

const newestSource = () => {
  let newest = 0
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name)
      if (e.isDirectory()) walk(p)
      else if (e.name.endsWith(".ts")) newest = Math.max(newest, statSync(p).mtimeMs)
    }
  }
  for (const name of readdirSync(packages)) {
    const src = join(packages, name, "src")
    if (existsSync(src)) walk(src)
  }
  // This script's own changes (bundle options) count as a change too.
  return Math.max(newest, statSync(fileURLToPath(import.meta.url)).mtimeMs)
}

if (!existsSync(bundle) || statSync(bundle).mtimeMs < newestSource()) {
  const { build } = await import("esbuild")
  await build({
    entryPoints: [join(packages, "cli", "src", "cli-entry.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // Written aside and renamed into place: several CLIs starting at once (tests in parallel)
    // may each rebuild, and none may ever load a half-written bundle.
    outfile: `${bundle}.${process.pid}.tmp`,
    // The native SQLite binding loads its .node file relative to itself, so it stays outside the
    // bundle, imported by absolute path from the package that depends on it (adapter-sqlite).
    plugins: [
      {
        name: "better-sqlite3-from-adapter",
        setup: (b) =>
          b.onResolve({ filter: /^better-sqlite3$/ }, () => ({
            path: pathToFileURL(createRequire(join(packages, "adapter-sqlite", "package.json")).resolve("better-sqlite3")).href,
            external: true
          }))
      }
    ],
    banner: { js: "import { createRequire as __tesseraRequire } from 'node:module'; const require = __tesseraRequire(import.meta.url);" },
    logLevel: "warning"
  })
  renameSync(`${bundle}.${process.pid}.tmp`, bundle)
}
if (process.argv[2] !== "build") await import(pathToFileURL(bundle).href)
