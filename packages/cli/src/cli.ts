import { Engine, makeEngine, type PlatformRecord, SECRET_SETTLE_DELAY_MS } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { SqliteStore } from "@tessera/adapter-sqlite"
import { type RunningServer, serve, startDueRunner, startWebhookWorker } from "@tessera/adapter-http"
import { parseCommandLine } from "./args.ts"
import { bannerText } from "./banner.ts"
import { readConfig, type ServerConfig } from "./config.ts"
import { DEBUG_VARIABLE, reportFailure } from "./failure-report.ts"
import { DEFAULT_CLIENT_SECRET, DEFAULT_SECRET_HASH, isPostgresUrl } from "./options.ts"
import { databaseProblem, listenProblem, postgresProblem } from "./startup-errors.ts"
import { importSeed, readSeedFile } from "./seed-file.ts"
import { serveUsage, topUsage } from "./usage.ts"
import { packageVersion } from "./version.ts"

/** One JSON log line; `time` is the wall clock, whatever the engine's (possibly virtual) clock says. */
const logLine = (fields: Record<string, unknown>) =>
  process.stdout.write(JSON.stringify({ time: new Date().toISOString(), ...fields }) + "\n")

/**
 * `settle`, run `delayMs` from now or at `now()`, whichever comes first, once: `done` settles when
 * it has run. The timer keeps no process alive.
 */
const runLater = (settle: () => Promise<void>, delayMs: number) => {
  let begin!: () => void
  const done = new Promise<void>((resolve) => (begin = resolve)).then(settle)
  const timer = setTimeout(begin, delayMs)
  timer.unref()
  return { done, now: () => (clearTimeout(timer), begin(), done) }
}

/**
 * Opens the store and the platform, then listens: a database problem is reported before the port
 * is taken. Known problems (busy port, unusable database path or host) reject with a one-line
 * StartupError. The configured secret is accepted at once and its stored hash checked or derived
 * in libuv's thread pool (DECISIONS #495, #520): SECRET_SETTLE_DELAY_MS after the server listens,
 * when the server closes, or at `settleSecretNow()`, whichever comes first. scrypt is ~30 ms of
 * memory-hard CPU that would otherwise compete with the start and its first answers.
 * `secretStored` (the promise `settleSecretNow` returns too) settles once that has run: the hash
 * stored, or its failure said on stderr. A caller that stops the server itself awaits it before
 * it disposes the engine, as the CLI does, so that the database keeps the hash.
 */
export const startServer = async (config: ServerConfig) => {
  const started = performance.now()
  // A seed file is read and checked before the database is opened: a bad one changes nothing.
  const seed = config.seedFile === undefined ? undefined : await readSeedFile(config.seedFile)
  const postgres = isPostgresUrl(config.db)
  // pg is loaded only for a PostgreSQL URL: evaluating it costs every other start ~20 ms (it
  // reaches for Node's fetch implementation while it loads).
  const store =
    config.db === ":memory:"
      ? MemoryStore.layer
      : postgres
        ? (await import("@tessera/adapter-postgres")).PostgresStore.layer({ url: config.db })
        : SqliteStore.layer({ filename: config.db })
  let engine: Engine | undefined
  let platform: PlatformRecord
  let settleSecret: (() => Promise<void>) | undefined
  try {
    // PostgreSQL answers asynchronously, so its engine is built with `Engine.make`; the
    // synchronous stores keep the synchronous start.
    engine = postgres ? await Engine.make({ store, clock: config.clock }) : makeEngine({ store, clock: config.clock })
    ;({ platform, settleSecret } = await engine.openPlatform({
      clientId: config.clientId,
      clientSecret: config.clientSecret,
      // The default secret is public: its hash is computed once, in the source (options.ts).
      ...(config.clientSecret === DEFAULT_CLIENT_SECRET ? { secretHash: DEFAULT_SECRET_HASH } : {}),
      name: "Sandbox platform",
      ...(config.webhookUrl === undefined ? {} : { webhookUrl: config.webhookUrl })
    }))
  } catch (e) {
    await engine?.dispose().catch(() => undefined)
    throw (postgres ? postgresProblem(config.db, e) : databaseProblem(config.db, e)) ?? e
  }
  // The seed is imported only once the port is ours (a busy port must not cost the database its
  // data); requests arriving meanwhile wait for the import instead of seeing the state it replaces.
  let seeded = () => {}
  const ready = seed === undefined ? undefined : new Promise<void>((resolve) => (seeded = resolve))
  let server: RunningServer
  try {
    server = await serve({
      engine,
      port: config.port,
      host: config.host,
      ...(ready === undefined ? {} : { ready }),
      ...(config.log ? { log: (e) => logLine({ level: "info", msg: "request", ...e }) } : {})
    })
  } catch (e) {
    await engine.dispose().catch(() => undefined)
    throw listenProblem(config.host, config.port, e) ?? e
  }
  if (seed !== undefined) {
    try {
      await importSeed(engine, platform, seed)
    } catch (e) {
      server.server.closeAllConnections()
      await server.close()
      await engine.dispose().catch(() => undefined)
      throw e
    } finally {
      seeded()
    }
  }
  // In libuv's thread pool once the start's first answers are out of the way. This process accepts
  // the configured secret either way; a failure leaves the store's hash as it was (a new
  // platform's pending), which the next start settles again, and is said on stderr (the error
  // names no secret).
  const secret = runLater(
    () =>
      settleSecret === undefined
        ? Promise.resolve()
        : settleSecret().catch((e: unknown) => {
            process.stderr.write(`tessera: the client secret's hash could not be stored (${e instanceof Error ? e.message : String(e)}); the next start stores it\n`)
          }),
    SECRET_SETTLE_DELAY_MS
  )
  // A caller that closes the server, then awaits `secretStored`, must not wait for the timer
  // (which keeps no process alive: with the server closed, node could exit before it fires).
  server.server.once("close", () => void secret.now())
  // Always on (DECISIONS #241): a URL set at run time by PATCH /config is delivered to at the
  // next tick. Idle, a tick is one indexed read of the platforms that have a URL, and finds none.
  const webhooks = startWebhookWorker(engine)
  // Delayed sandbox outcomes (a 005 transfer failing after 30 s) on the engine's clock.
  const outcomes = startDueRunner(engine)
  return { engine, platform, server, webhooks, outcomes, secretStored: secret.done, settleSecretNow: secret.now, readyMs: performance.now() - started }
}

const fail = (e: unknown) => {
  const report = reportFailure(e, (process.env[DEBUG_VARIABLE] ?? "") !== "")
  process.stderr.write(report.text)
  process.exitCode = report.exitCode
}

/** Runs the command line; returns once the server is up (or the command is done). */
export const main = async (argv: ReadonlyArray<string>) => {
  // A closed reader (`tessera serve --help | head -1`) ends us quietly, as SIGPIPE ends C tools.
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code !== "EPIPE") throw e
    process.exit()
  })
  try {
    const command = parseCommandLine(argv)
    if (command._tag === "Help") return void process.stdout.write(command.topic === "serve" ? serveUsage : topUsage)
    if (command._tag === "Version") return void process.stdout.write(`${packageVersion()}\n`)
    const config = readConfig(process.env, command.flags)
    await serveUntilSignalled(config)
  } catch (e) {
    fail(e)
  }
}

const serveUntilSignalled = async (config: ServerConfig) => {
  const { engine, platform, server, webhooks, outcomes, settleSecretNow, readyMs } = await startServer(config)
  // Once serving, an escaped error ends the process as a startup one would: one line, exit 1.
  const crash = (e: unknown) => {
    fail(e)
    process.exit()
  }
  process.on("uncaughtException", crash)
  process.on("unhandledRejection", crash)
  let stopping = false
  const stop = (signal: string) => {
    if (stopping) return
    stopping = true
    process.stdout.write(`${signal}: shutting down\n`)
    const force = setTimeout(() => process.exit(1), 10_000)
    force.unref()
    // Stop accepting and abort the webhook attempts under way at once (their events stay due for
    // the next start); only then close the store, which in-flight requests may still be using.
    void Promise.all([server.close(), webhooks.stop(), outcomes.stop(), settleSecretNow()])
      .then(() => engine.dispose())
      .then(
        () => process.exit(0),
        (e: unknown) => crash(e)
      )
  }
  process.on("SIGINT", () => stop("SIGINT"))
  process.on("SIGTERM", () => stop("SIGTERM"))
  // Printed once a signal is handled: writing to a pipe is synchronous, so a reader may signal
  // the moment it has the banner, and that signal must get the orderly shutdown.
  // The URL in effect: the flag's, or the one a database kept from an earlier PATCH /config.
  const shown = platform.webhookUrl === undefined ? config : { ...config, webhookUrl: platform.webhookUrl }
  process.stdout.write(bannerText(shown, server, process.env["TESSERA_CLIENT_SECRET"] !== undefined, readyMs))
}
