#!/usr/bin/env node
// Runs the TypeScript CLI through tsx's loader, so the package needs no build step.
import { register } from "tsx/esm/api"
register()
process.argv.splice(1, 1, new URL("../src/cli.ts", import.meta.url).pathname)
await import("../src/cli.ts")
