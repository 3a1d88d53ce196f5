// The CLI's entry: bin/tessera.mjs runs it from dist/ (installed) or from the dev bundle of
// scripts/dev-cli.mjs (in a checkout).
//
// The configured secret's hash starts first, in libuv's thread pool; only then is the rest of
// the CLI (the engine, the adapters, Effect) loaded, by a dynamic import, which the bundle turns
// into a lazy initialisation (esbuild), so evaluating those modules overlaps with the hashing.
import { secretHashForCommandLine } from "./secret-hash.ts"

const argv = process.argv.slice(2)
const secretHash = secretHashForCommandLine(argv, process.env)
void import("./cli.ts").then(({ main }) => main(argv, secretHash))
