import {
  DEFAULT_CLIENT_ID,
  DEFAULT_CLIENT_SECRET,
  DEFAULT_DB,
  DEFAULT_HOST,
  DEFAULT_PORT,
  isPostgresUrl,
  SERVE_OPTIONS,
  type ServeFlags
} from "./options.ts"

export { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET, DEFAULT_SECRET_HASH, type ServeFlags } from "./options.ts"

/**
 * Standalone server configuration from flags and the environment (DECISIONS #21). Every value has
 * a default so `pnpm start` works on a fresh clone; the defaults are printed at start.
 */
export interface ServerConfig {
  readonly port: number
  readonly host: string
  readonly db: string
  readonly clientId: string
  readonly clientSecret: string
  readonly clock: "real" | "virtual"
  readonly webhookUrl?: string
  /** A state document to import into the sandbox platform at start (replacing its data). */
  readonly seedFile?: string
  readonly log: boolean
}

/** A value the user gave that cannot be used; the message is one line naming its flag or variable. */
export class ConfigError extends Error {}

/** A given value and the name the user gave it under (`--port` or `PORT`), for the message. */
interface Given {
  readonly value: string
  readonly name: string
}

const given = (flags: ServeFlags, env: Record<string, string | undefined>, key: keyof ServeFlags): Given | undefined => {
  const option = SERVE_OPTIONS.find((o) => o.key === key)!
  const flag = flags[key]
  if (flag !== undefined) return { value: flag, name: `--${option.flag}` }
  const value = env[option.env]
  return value === undefined ? undefined : { value, name: option.env }
}

const fromEnv = (env: Record<string, string | undefined>, name: string): Given | undefined => {
  const value = env[name]
  return value === undefined ? undefined : { value, name }
}

const rejected = (g: Given, accepted: string) =>
  new ConfigError(`${g.name} must be ${accepted}, got ${g.value === "" ? "an empty value" : JSON.stringify(g.value)}`)

const check = <A>(g: Given | undefined, fallback: A, accepted: string, parse: (s: string) => A | undefined): A => {
  if (g === undefined) return fallback
  const parsed = parse(g.value)
  if (parsed === undefined) throw rejected(g, accepted)
  return parsed
}

// Control characters would break the one-line messages and the banner; nobody means them.
const CONTROL = /[\u0000-\u001f\u007f]/

const port = (s: string) => (/^\d{1,5}$/.test(s) && Number(s) <= 65535 ? Number(s) : undefined)

// `[::1]` is how an IPv6 address appears in a URL; accept it as written there.
const host = (s: string) => {
  const bare = /^\[.*\]$/.test(s) ? s.slice(1, -1) : s
  return bare === "" || /\s/.test(bare) || CONTROL.test(bare) ? undefined : bare
}

const nonEmpty = (s: string) => (s === "" || CONTROL.test(s) ? undefined : s)

// Basic auth splits user and password at the first colon: an id holding one could never log in.
const clientId = (s: string) => (s.includes(":") ? undefined : nonEmpty(s))

const oneOf =
  <const T extends string>(...values: ReadonlyArray<T>) =>
  (s: string): T | undefined =>
    values.find((v) => v === s)

/** A file path, `:memory:`, or a PostgreSQL URL that parses. */
const database = (s: string) => (isPostgresUrl(s) ? (URL.canParse(s) ? s : undefined) : nonEmpty(s))

const httpUrl = (s: string) => {
  if (!URL.canParse(s)) return undefined
  const url = new URL(s)
  return url.protocol === "http:" || url.protocol === "https:" ? s : undefined
}

/** Flags win over their variables; a variable a flag overrides is not read, so not checked. */
export const readConfig = (env: Record<string, string | undefined>, flags: ServeFlags = {}): ServerConfig => {
  const base = {
    port: check(given(flags, env, "port"), DEFAULT_PORT, "an integer from 0 to 65535 (0 picks a free port)", port),
    host: check(given(flags, env, "host"), DEFAULT_HOST, "an IP address or a host name (127.0.0.1 for this machine only, 0.0.0.0 for all interfaces)", host),
    db: check(given(flags, env, "db"), DEFAULT_DB, 'a file path, ":memory:" for the memory store, or a postgres:// URL', database),
    clientId: check(given(flags, env, "clientId"), DEFAULT_CLIENT_ID, 'a non-empty id without ":" or control characters', clientId),
    clientSecret: check(fromEnv(env, "TESSERA_CLIENT_SECRET"), DEFAULT_CLIENT_SECRET, "a non-empty secret without control characters", nonEmpty),
    clock: check(given(flags, env, "clock"), "real" as const, '"real" or "virtual"', oneOf("real", "virtual")),
    log: check(fromEnv(env, "TESSERA_LOG"), "on", '"on" or "off"', oneOf("on", "off")) === "on"
  }
  const webhookUrl = check(given(flags, env, "webhookUrl"), undefined, "an http:// or https:// URL", httpUrl)
  const seedFile = check(given(flags, env, "seedFile"), undefined, "the path of a state document exported by GET /sandbox/state", nonEmpty)
  return {
    ...base,
    ...(webhookUrl === undefined ? {} : { webhookUrl }),
    ...(seedFile === undefined ? {} : { seedFile })
  }
}
