// The CLI's entry: bin/tessera.mjs runs it from dist/ (installed) or from the dev bundle of
// scripts/dev-cli.mjs (in a checkout). The early hash is imported first, so it starts before the
// modules cli.ts brings in are evaluated (imports evaluate in order).
import { earlySecretHash } from "./early-secret-hash.ts"
import { main } from "./cli.ts"

void main(process.argv.slice(2), earlySecretHash)
