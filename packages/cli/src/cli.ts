import { makeEngine } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { SqliteStore } from "@tessera/adapter-sqlite"
import { ConfigError, readConfig, type ServerConfig } from "./config.ts"
import { serve, startWebhookWorker, type WebhookWorker } from "@tessera/adapter-http"

const idleWorker: WebhookWorker = { tick: async () => ({ attempted: 0, delivered: 0 }), stop: async () => undefined }

const usage = `Usage: tessera serve

Starts the Tessera sandbox server. Configuration (environment):
  PORT                   port to listen on (default 4010; 0 picks a free one)
  HOST                   interface (default 127.0.0.1)
  TESSERA_DB             SQLite file (default ./tessera.sqlite); ":memory:" for the memory store
  TESSERA_CLIENT_ID      Basic-auth client id of the sandbox platform
  TESSERA_CLIENT_SECRET  Basic-auth client secret of the sandbox platform
  TESSERA_CLOCK          real (default) or virtual (enables POST /sandbox/clock/advance)
  TESSERA_WEBHOOK_URL    where the platform's webhooks go
  TESSERA_LOG            "off" silences the request log`

export const startServer = async (config: ServerConfig) => {
  const started = performance.now()
  const store = config.db === ":memory:" ? MemoryStore.layer : SqliteStore.layer({ filename: config.db })
  const engine = makeEngine({ store, clock: config.clock })
  await engine.platform({
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    name: "Sandbox platform",
    ...(config.webhookUrl === undefined ? {} : { webhookUrl: config.webhookUrl })
  })
  const server = await serve({
    engine,
    port: config.port,
    host: config.host,
    ...(config.log ? { log: (e) => process.stdout.write(JSON.stringify({ level: "info", msg: "request", ...e }) + "\n") } : {})
  })
  // The only platform here is the sandbox one: without a URL there is nowhere to deliver, so no
  // polling; the outbox keeps the events for a restart with TESSERA_WEBHOOK_URL set.
  const webhooks = config.webhookUrl === undefined ? idleWorker : startWebhookWorker(engine)
  return { engine, server, webhooks, readyMs: performance.now() - started }
}

export const main = async (argv: ReadonlyArray<string>) => {
  if (argv[0] !== "serve") {
    process.stderr.write(usage + "\n")
    process.exit(argv[0] === undefined || argv[0] === "--help" || argv[0] === "help" ? 0 : 2)
  }
  let config: ServerConfig
  try {
    config = readConfig(process.env)
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`tessera: ${e.message}\n`)
      process.exit(2)
    }
    throw e
  }
  const { engine, server, webhooks, readyMs } = await startServer(config)
  const secretShown = process.env["TESSERA_CLIENT_SECRET"] === undefined ? config.clientSecret : "(from TESSERA_CLIENT_SECRET)"
  process.stdout.write(
    [
      `Tessera sandbox listening on ${server.url}`,
      `  store:        ${config.db === ":memory:" ? "memory (lost on exit)" : `SQLite ${config.db}`}`,
      `  clock:        ${config.clock}`,
      `  client id:    ${config.clientId}`,
      `  client secret: ${secretShown}`,
      `  webhooks:     ${config.webhookUrl ?? "(none: set TESSERA_WEBHOOK_URL)"}; signing key at ${server.url}/sandbox/webhooks/public-key`,
      `  try: curl -u ${config.clientId}:<secret> ${server.url}/customers`,
      `  ready in ${readyMs.toFixed(0)} ms`,
      ""
    ].join("\n")
  )
  let stopping = false
  const stop = (signal: string) => {
    if (stopping) return
    stopping = true
    process.stdout.write(`${signal}: shutting down\n`)
    const force = setTimeout(() => process.exit(1), 10_000)
    force.unref()
    void webhooks
      .stop()
      .then(() => server.close())
      .then(() => engine.dispose())
      .then(() => process.exit(0))
  }
  process.on("SIGINT", () => stop("SIGINT"))
  process.on("SIGTERM", () => stop("SIGTERM"))
}

if (process.argv[1]?.endsWith("cli.ts")) {
  void main(process.argv.slice(2))
}
