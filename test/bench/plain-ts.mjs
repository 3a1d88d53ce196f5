// `node --import ./bench/plain-ts.mjs bench/run.ts` (what `pnpm bench` runs): loads the
// benchmarks and the engine's TypeScript sources as the plain JavaScript an installed package
// is, each file transformed on its own by esbuild, keeping the module boundaries. tsx does the
// same but with esbuild's `keepNames`, which wraps every named function made at run time in a
// `__name` call that defines its `name`: neither the packages' `dist/` (tsc's output) nor the
// CLI's bundle has those calls, and a customer creation made ~5 of them: through tsx the
// in-process figures were ~10% below the installed packages' (DECISIONS #514).
import { register } from "node:module"

register("./plain-ts-hooks.mjs", import.meta.url)
