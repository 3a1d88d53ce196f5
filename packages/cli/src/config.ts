/**
 * Standalone server configuration from the environment (DECISIONS #21). Every value has a
 * default so `pnpm start` works on a fresh clone; the defaults are printed at start.
 */
export interface ServerConfig {
  readonly port: number
  readonly host: string
  readonly db: string
  readonly clientId: string
  readonly clientSecret: string
  readonly clock: "real" | "virtual"
  readonly webhookUrl?: string
  readonly log: boolean
}

export const DEFAULT_CLIENT_ID = "sandbox-client-id"
export const DEFAULT_CLIENT_SECRET = "sandbox-client-secret"

export class ConfigError extends Error {}

export const readConfig = (env: Record<string, string | undefined>): ServerConfig => {
  const port = Number(env["PORT"] ?? "4010")
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`PORT must be 0-65535, got ${env["PORT"]}`)
  const clock = env["TESSERA_CLOCK"] ?? "real"
  if (clock !== "real" && clock !== "virtual") throw new ConfigError(`TESSERA_CLOCK must be real or virtual, got ${clock}`)
  const base = {
    port,
    host: env["HOST"] ?? "127.0.0.1",
    db: env["TESSERA_DB"] ?? "./tessera.sqlite",
    clientId: env["TESSERA_CLIENT_ID"] ?? DEFAULT_CLIENT_ID,
    clientSecret: env["TESSERA_CLIENT_SECRET"] ?? DEFAULT_CLIENT_SECRET,
    clock: clock as "real" | "virtual",
    log: env["TESSERA_LOG"] !== "off"
  }
  const webhookUrl = env["TESSERA_WEBHOOK_URL"]
  return webhookUrl === undefined ? base : { ...base, webhookUrl }
}
