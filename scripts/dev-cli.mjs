#!/usr/bin/env node
// Runs the CLI of this checkout from a bundle of its TypeScript sources, rebuilt with esbuild
// whenever a source file is newer. Transpiling ~100 modules through tsx at every start cost about
// a second; the bundle starts in a fraction of that (README, "Cold start"). `pnpm start` and
// `packages/cli/bin/tessera.mjs` in a checkout come here; an installed `tessera` runs the bundle
// scripts/pack-all.mjs put in its dist/ (both from scripts/bundle-cli.mjs).
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
  // The bundling scripts' own changes (bundle options) count as a change too.
  const scripts = [fileURLToPath(import.meta.url), join(root, "scripts", "bundle-cli.mjs")]
  return Math.max(newest, ...scripts.map((s) => statSync(s).mtimeMs))
}

if (!existsSync(bundle) || statSync(bundle).mtimeMs < newestSource()) {
  const { bundleCli } = await import("./bundle-cli.mjs")
  // Written aside and renamed into place: several CLIs starting at once (tests in parallel) may
  // each rebuild, and none may ever load a half-written bundle. better-sqlite3 is imported by
  // absolute path from the package that depends on it (adapter-sqlite).
  const aside = `${bundle}.${process.pid}.tmp`
  await bundleCli({ outfile: aside, sqlite: createRequire(join(packages, "adapter-sqlite", "package.json")).resolve("better-sqlite3") })
  renameSync(aside, bundle)
}
if (process.argv[2] !== "build") await import(pathToFileURL(bundle).href)
