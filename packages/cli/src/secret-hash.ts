// The configured client secret's scrypt hash, computed in libuv's thread pool while the main
// thread does the rest of the start. Hashing it on the main thread (scryptSync) cost a cold start
// ~35 ms; started before the server's modules are even evaluated (early-secret-hash.ts), it is
// usually ready by the time the platform record is written (DECISIONS #431).
import { hashSecretAsync } from "@tessera/core/crypto"
import { parseCommandLine } from "./args.ts"
import { readConfig } from "./config.ts"
import { DEFAULT_CLIENT_SECRET, DEFAULT_SECRET_HASH } from "./options.ts"

/** A hash under way, with the secret it is of (the server uses it only for that same secret). */
export interface SecretHash {
  readonly secret: string
  readonly hash: Promise<string>
}

/** Starts hashing `secret`; the CLI's public default has its hash precomputed (options.ts). */
export const startSecretHash = (secret: string): SecretHash => {
  const hash = secret === DEFAULT_CLIENT_SECRET ? Promise.resolve(DEFAULT_SECRET_HASH) : hashSecretAsync(secret)
  // Awaited later by the start; a failure meanwhile is reported there, not as an unhandled rejection.
  hash.catch(() => undefined)
  return { secret, hash }
}

/**
 * For `tessera serve`, the hash of the secret its configuration names, started now; undefined
 * for any other command or a configuration that does not read (main reports that, as before).
 */
export const secretHashForCommandLine = (argv: ReadonlyArray<string>, env: Record<string, string | undefined>): SecretHash | undefined => {
  try {
    const command = parseCommandLine(argv)
    return command._tag === "Serve" ? startSecretHash(readConfig(env, command.flags).clientSecret) : undefined
  } catch {
    return undefined
  }
}
