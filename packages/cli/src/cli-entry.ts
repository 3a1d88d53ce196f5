// The CLI's entry: bin/tessera.mjs runs it from dist/ (installed) or from the dev bundle of
// scripts/dev-cli.cjs (in a checkout).
import { main } from "./cli.ts"

void main(process.argv.slice(2))
