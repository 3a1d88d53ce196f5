#!/usr/bin/env node
// The `tessera` binary. Installed from a tarball it runs dist/tessera.mjs, one bundle of the CLI
// (built by scripts/pack-all.mjs; loading the packages' ~300 separate modules took about twice as
// long). In a checkout of the repository (sources beside it, dev tooling at the root) it runs the
// sources through the root's dev runner instead, so `pnpm start` and the tests run what is edited.
import { existsSync } from "node:fs"
import { fileURLToPath, pathToFileURL } from "node:url"

const dev = fileURLToPath(new URL("../../../scripts/dev-cli.mjs", import.meta.url))
const inCheckout = existsSync(fileURLToPath(new URL("../src/cli-entry.ts", import.meta.url))) && existsSync(dev)
await import(inCheckout ? pathToFileURL(dev).href : new URL("../dist/tessera.mjs", import.meta.url).href)
