#!/usr/bin/env node
// Starts the CLI from a bundle in dist/, rebuilt with esbuild whenever a source file is newer.
// Transpiling ~100 TypeScript modules through tsx at every start cost about a second; the
// bundle starts in a fraction of that (see README, "Cold start"). Nothing to run by hand: the
// first start after a change rebuilds (~0.3 s), later starts reuse the bundle.
import { existsSync, readdirSync, statSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const pkg = dirname(dirname(fileURLToPath(import.meta.url)))
const packages = dirname(pkg)
const bundle = join(pkg, "dist", "tessera.mjs")

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
  return newest
}

if (!existsSync(bundle) || statSync(bundle).mtimeMs < newestSource()) {
  const { build } = await import("esbuild")
  await build({
    entryPoints: [join(pkg, "src", "cli-entry.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile: bundle,
    // The native SQLite binding loads its .node file relative to itself; keep it a dependency.
    external: ["better-sqlite3"],
    banner: { js: "import { createRequire as __tesseraRequire } from 'node:module'; const require = __tesseraRequire(import.meta.url);" },
    logLevel: "warning"
  })
}
// `tessera build` only refreshes the bundle (the root `prepare` script runs it on install).
if (process.argv[2] !== "build") await import(pathToFileURL(bundle).href)
