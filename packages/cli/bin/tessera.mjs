#!/usr/bin/env node
// The `tessera` binary. Installed from a tarball it runs dist/tessera.cjs, one bundle of the CLI
// (built by scripts/pack-all.mjs; loading the packages' ~300 separate modules took about twice as
// long), through V8's code cache (run-bundle.cjs). In a checkout of the repository (sources beside
// it, dev tooling at the root) it runs the sources through the root's dev runner instead, so
// `pnpm start` and the tests run what is edited. Both are CommonJS, required here: an ES module
// import of each cost a start more (DECISIONS #501).
import { existsSync } from "node:fs"
import { createRequire } from "node:module"
import { fileURLToPath } from "node:url"

const require = createRequire(import.meta.url)
const dev = fileURLToPath(new URL("../../../scripts/dev-cli.cjs", import.meta.url))
const inCheckout = existsSync(fileURLToPath(new URL("../src/cli-entry.ts", import.meta.url))) && existsSync(dev)
if (inCheckout) require(dev)
else require("./run-bundle.cjs").compileBundle(fileURLToPath(new URL("../dist/tessera.cjs", import.meta.url))).run()
