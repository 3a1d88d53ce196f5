#!/usr/bin/env node
// The `tessera` binary. Installed from a tarball it runs dist/tessera.cjs, one bundle of the CLI
// (built by scripts/pack-all.mjs; loading the packages' ~300 separate modules took about twice as
// long), through V8's code cache (run-bundle.mjs). In a checkout of the repository (sources beside
// it, dev tooling at the root) it runs the sources through the root's dev runner instead, so
// `pnpm start` and the tests run what is edited.
import { existsSync } from "node:fs"
import { fileURLToPath, pathToFileURL } from "node:url"
import v8 from "node:v8"

// The young generation starts at 1 MiB and doubles after each scavenge that finds it too small;
// the start allocates ~17 MiB of long-lived objects (Effect's and the engine's modules, their
// schemas). Growing it sixteenfold reaches V8's usual ceiling (16 MiB) at the first scavenge:
// two small scavenges before the first answer instead of four (two of them copying megabytes of
// survivors), ~13 ms less collection (DECISIONS #433, #465). A busy server reaches that size
// anyway. Set before the bundle is compiled, so its code cache always matches the flags it is
// read with.
v8.setFlagsFromString("--semi-space-growth-factor=16")

const dev = fileURLToPath(new URL("../../../scripts/dev-cli.mjs", import.meta.url))
const inCheckout = existsSync(fileURLToPath(new URL("../src/cli-entry.ts", import.meta.url))) && existsSync(dev)
if (inCheckout) await import(pathToFileURL(dev).href)
else (await import("./run-bundle.mjs")).compileBundle(fileURLToPath(new URL("../dist/tessera.cjs", import.meta.url))).run()
