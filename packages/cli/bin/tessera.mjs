#!/usr/bin/env node
// The `tessera` binary. Installed from a tarball it runs dist/tessera.cjs, one bundle of the CLI
// (built by scripts/pack-all.mjs; loading the packages' ~300 separate modules took about twice as
// long), through V8's code cache (run-bundle.mjs). In a checkout of the repository (sources beside
// it, dev tooling at the root) it runs the sources through the root's dev runner instead, so
// `pnpm start` and the tests run what is edited.
import { existsSync } from "node:fs"
import { fileURLToPath, pathToFileURL } from "node:url"

const dev = fileURLToPath(new URL("../../../scripts/dev-cli.mjs", import.meta.url))
const inCheckout = existsSync(fileURLToPath(new URL("../src/cli-entry.ts", import.meta.url))) && existsSync(dev)
if (inCheckout) await import(pathToFileURL(dev).href)
else (await import("./run-bundle.mjs")).compileBundle(fileURLToPath(new URL("../dist/tessera.cjs", import.meta.url))).run()
