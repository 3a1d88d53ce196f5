// The first thing the CLI bundle evaluates of its own (cli-entry.ts imports it before cli.ts):
// for `tessera serve`, the configured secret's scrypt hash starts here, in libuv's thread pool, so
// the ~35 ms of key derivation run on another core while the main thread evaluates the engine's,
// the adapters' and Effect's modules (DECISIONS #431). Anything else imports secret-hash.ts.
import { secretHashForCommandLine } from "./secret-hash.ts"

export const earlySecretHash = secretHashForCommandLine(process.argv.slice(2), process.env)
