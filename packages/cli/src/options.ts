/**
 * The options of `tessera serve`, in one table: the parser, the usage text and the config reader
 * all read it, so a flag cannot exist without its variable, its help line or its check.
 */
export interface ServeFlags {
  readonly port?: string
  readonly host?: string
  readonly db?: string
  readonly clock?: string
  readonly webhookUrl?: string
  readonly clientId?: string
  readonly seedFile?: string
}

export interface ServeOption {
  /** The long flag without dashes, as parseArgs names it. */
  readonly flag: string
  readonly key: keyof ServeFlags
  readonly env: string
  readonly placeholder: string
  readonly help: string
}

export const DEFAULT_PORT = 4010
export const DEFAULT_HOST = "127.0.0.1"
export const DEFAULT_DB = "./tessera.sqlite"
/** A `--db` value naming a PostgreSQL database rather than a SQLite file. */
export const isPostgresUrl = (db: string): boolean => /^postgres(ql)?:\/\//i.test(db)

/** A database URL with its password replaced, for the banner and error messages. */
export const redactedUrl = (db: string): string => {
  if (!URL.canParse(db)) return db
  const url = new URL(db)
  if (url.password !== "") url.password = "***"
  return url.toString()
}

export const DEFAULT_CLIENT_ID = "sandbox-client-id"
export const DEFAULT_CLIENT_SECRET = "sandbox-client-secret"
/**
 * The stored form of the default secret, derived once with the engine's scrypt parameters and a
 * fixed salt (`tessera-default!`): the secret is printed in the banner and the README, so a salt
 * of its own protects nothing, and deriving it cost every start on a fresh database ~35 ms.
 */
export const DEFAULT_SECRET_HASH = "scrypt$16384$8$1$dGVzc2VyYS1kZWZhdWx0IQ==$E2W/55VlclQOWhjfWo9fTK7WXbx4aZtlxV3k2WvLiVQ="

export const SERVE_OPTIONS: ReadonlyArray<ServeOption> = [
  { flag: "port", key: "port", env: "PORT", placeholder: "<port>", help: `port to listen on (default ${DEFAULT_PORT}; 0 picks a free one)` },
  { flag: "host", key: "host", env: "HOST", placeholder: "<host>", help: `interface (default ${DEFAULT_HOST}; 0.0.0.0 for all)` },
  { flag: "db", key: "db", env: "TESSERA_DB", placeholder: "<file|url>", help: `SQLite file (default ${DEFAULT_DB}); :memory: keeps data in memory only; postgres://… a PostgreSQL database (several instances may share it)` },
  { flag: "clock", key: "clock", env: "TESSERA_CLOCK", placeholder: "<mode>", help: "real (default) or virtual (enables POST /sandbox/clock/advance)" },
  { flag: "webhook-url", key: "webhookUrl", env: "TESSERA_WEBHOOK_URL", placeholder: "<url>", help: "http(s) URL for the sandbox platform's webhooks (default none)" },
  { flag: "client-id", key: "clientId", env: "TESSERA_CLIENT_ID", placeholder: "<id>", help: `Basic-auth client id of the sandbox platform (default ${DEFAULT_CLIENT_ID})` },
  {
    flag: "seed-file",
    key: "seedFile",
    env: "TESSERA_SEED_FILE",
    placeholder: "<file>",
    help: "a state document (GET /sandbox/state) loaded into the sandbox platform at start, replacing its data"
  }
]

/** Read from the environment only: a secret on the command line would show in `ps`. */
export const ENV_ONLY: ReadonlyArray<{ readonly env: string; readonly help: string }> = [
  { env: "TESSERA_CLIENT_SECRET", help: `Basic-auth client secret (default ${DEFAULT_CLIENT_SECRET}); no flag, so it never shows in ps` },
  { env: "TESSERA_LOG", help: "on (default) or off: the request log, JSON lines on stdout" },
  { env: "TESSERA_DEBUG", help: "any value: an unexpected error also prints its stack" }
]
