#!/usr/bin/env node
// Runs the CLI of this checkout from a bundle of its TypeScript sources, rebuilt with esbuild
// whenever one of them is newer. Transpiling ~300 modules through tsx at every start cost about
// a second; the bundle, compiled through V8's code cache, starts in a small fraction of that
// (README, "Cold start"). `pnpm start` and `packages/cli/bin/tessera.mjs` in a checkout come here;
// an installed `tessera` runs the bundle scripts/pack-all.mjs put in its dist/ (both from
// scripts/bundle-cli.mjs, both loaded by packages/cli/bin/run-bundle.cjs).
// `node scripts/dev-cli.cjs build` only refreshes the bundle (the root `prepare` script runs it).
// CommonJS, like run-bundle.cjs, so that a start loads no ES module but the binary's own
// (DECISIONS #501); the bundling scripts, ES modules, are imported only to rebuild.
"use strict"
const { renameSync, rmSync, statSync } = require("node:fs")
const { createRequire } = require("node:module")
const { dirname, join } = require("node:path")
const { compileBundle, readBundle } = require("../packages/cli/bin/run-bundle.cjs")

const root = dirname(__dirname)
const bundle = join(root, "packages", "cli", "dev", "tessera.cjs")
// The bundling scripts' own changes (bundle options) count as a change too, and so does the
// lockfile: an upgraded dependency (Effect, noble) is bundled code as much as the sources are.
const scripts = [__filename, join(root, "scripts", "bundle-cli.mjs"), join(root, "scripts", "lazy-endpoint-groups.mjs"), join(root, "scripts", "effect-schema-constructors.mjs"), join(root, "scripts", "direct-core-imports.mjs"), join(root, "pnpm-lock.yaml")]

const build = async () => {
  const { bundleCli } = await import("./bundle-cli.mjs")
  // Written aside and renamed into place: several CLIs starting at once (tests in parallel) may
  // each rebuild, and none may ever load a half-written bundle.
  // better-sqlite3 is required by absolute path from the package that depends on it (adapter-sqlite).
  const aside = `${bundle}.${process.pid}.tmp`
  const sqlite = createRequire(join(root, "packages", "adapter-sqlite", "package.json")).resolve("better-sqlite3")
  await bundleCli({ outfile: aside, sqlite, listSources: true })
  renameSync(aside, bundle)
  // The ES-module bundle of earlier checkouts, no longer run.
  rmSync(join(dirname(bundle), "tessera.mjs"), { force: true })
}

/**
 * Whether any of the files the bundle was made of (its second line) or the scripts that made it
 * is newer than the bundle, or gone. Stat'ed one after the other on the main thread: ~320 stats
 * take ~2 ms so, less than issuing them to libuv's thread pool did (~7 µs each, then a callback
 * each), and the thread pool's threads no longer compete with the main thread and the secret's
 * scrypt for the machine's cores (DECISIONS #477). Stops at the first newer file.
 */
const isStale = (source, builtMs) => {
  const line = /^[^\n]*\n\/\/ tessera-sources (.*)\n/.exec(source)
  if (line === null) return true
  // Joined by hand: path.join's normalising cost more than the stats it prepares.
  for (const f of [...JSON.parse(line[1]).map((p) => `${root}/${p}`), ...scripts]) {
    const s = statSync(f, { throwIfNoEntry: false })
    if (s === undefined || s.mtimeMs > builtMs) return true
  }
  return false
}

/** The bundle's text when it is there and current; undefined when it must be (re)built. */
const current = () => {
  try {
    const builtMs = statSync(bundle).mtimeMs
    const source = readBundle(bundle)
    return isStale(source, builtMs) ? undefined : source
  } catch {
    return undefined
  }
}

// A failed build is reported and the process exits non-zero, whatever node's
// --unhandled-rejections mode.
const failed = (e) => {
  console.error(e)
  process.exitCode = 1
}
if (process.argv[2] === "build") {
  if (current() === undefined) build().catch(failed)
} else {
  const source = current()
  if (source === undefined) build().then(() => compileBundle(bundle).run(), failed)
  else compileBundle(bundle, source).run()
}
