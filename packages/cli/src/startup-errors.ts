import { closeSync, constants, existsSync, openSync, rmSync } from "node:fs"
import { dirname } from "node:path"
import { Cause, Runtime } from "effect"
import { redactedUrl } from "./options.ts"

/**
 * A problem the user can fix (a busy port, an unusable database path or host); the message is
 * one line naming the problem and the fix. The underlying error stays as `cause` for debugging.
 */
export class StartupError extends Error {}

/** The error under Effect's FiberFailure wrapper (what `runSync`/`runPromise` throw). */
export const rootCause = (e: unknown): unknown =>
  Runtime.isFiberFailure(e) ? Cause.squash(e[Runtime.FiberFailureCauseId]) : e

const codeOf = (e: unknown): string | undefined =>
  typeof e === "object" && e !== null && "code" in e && typeof e.code === "string" ? e.code : undefined

const isSqliteFailure = (e: unknown) =>
  e instanceof Error && (e.name === "SqliteError" || e.message.startsWith("Cannot open database"))

/**
 * Why the OS refuses the file, found by trying what SQLite needs: the file, then its WAL sidecar
 * beside it, open for writing (created when missing, then removed again). SQLite's own message
 * is "unable to open database file" for all of these.
 */
const osRefusal = (path: string): { readonly code: string; readonly sidecar: boolean } | undefined => {
  for (const p of [path, `${path}-wal`]) {
    const existed = existsSync(p)
    try {
      closeSync(openSync(p, constants.O_RDWR | constants.O_CREAT))
      if (!existed) rmSync(p, { force: true })
    } catch (e) {
      return { code: codeOf(e) ?? "UNKNOWN", sidecar: p !== path }
    }
  }
  return undefined
}

const CHOOSE = "choose another file with --db (or --db :memory:)"
const CHOOSE_WRITABLE = "choose a file in a writable location with --db (or --db :memory:)"

const reasonOf = (path: string, e: Error): string => {
  const refusal = osRefusal(path)
  const dir = JSON.stringify(dirname(path))
  const sqliteCode = codeOf(e)
  if (refusal?.sidecar === true) return `directory ${dir} does not take new files (SQLite keeps a -wal file beside the database); ${CHOOSE_WRITABLE}`
  switch (refusal?.code) {
    case "ENOENT":
      return existsSync(dirname(path))
        ? `directory ${dir} does not take new files; ${CHOOSE_WRITABLE}`
        : `directory ${dir} does not exist; create it or ${CHOOSE}`
    case "ENOTDIR":
      return `part of the path is a file, not a directory; ${CHOOSE}`
    case "EISDIR":
      return `it is a directory; give a file path, e.g. --db ${JSON.stringify(`${path.replace(/\/+$/, "")}/tessera.sqlite`)}`
    case "EACCES":
    case "EPERM":
    case "EROFS":
      return `the location is not writable; ${CHOOSE_WRITABLE}`
  }
  if (sqliteCode === "SQLITE_READONLY") return `the location is not writable; ${CHOOSE_WRITABLE}`
  if (sqliteCode === "SQLITE_NOTADB" || sqliteCode === "SQLITE_CORRUPT") return `it is not a SQLite database; ${CHOOSE}`
  if (sqliteCode === "SQLITE_BUSY" || sqliteCode === "SQLITE_LOCKED") return `another process holds it locked; stop that process or ${CHOOSE}`
  return `${firstLine(e.message)}; ${CHOOSE}`
}

/** A startup failure of the SQLite store as one line, or undefined when it is not one. */
export const databaseProblem = (path: string, error: unknown): StartupError | undefined => {
  const e = rootCause(error)
  if (!isSqliteFailure(e)) return undefined
  return new StartupError(`cannot open database ${JSON.stringify(path)}: ${reasonOf(path, e as Error)}`, { cause: e })
}

/**
 * A PostgreSQL database that cannot be used at start (no server there, refused login, missing
 * database) as one line, the password left out. Its store fails its layer with a StoreError.
 */
export const postgresProblem = (url: string, error: unknown): StartupError | undefined => {
  const e = rootCause(error)
  const tagged = typeof e === "object" && e !== null && "_tag" in e && e._tag === "StoreError"
  const pgError = typeof e === "object" && e !== null && "severity" in e
  if (!tagged && !pgError) return undefined
  return new StartupError(`cannot use PostgreSQL database ${JSON.stringify(redactedUrl(url))}: ${firstLine(String((e as { message?: unknown }).message))}; check that the server runs and the URL (user, password, host, database) is right`, { cause: e })
}

const HOSTS = "127.0.0.1 for this machine only, 0.0.0.0 for all interfaces"

/** A failure to listen as one line, or undefined when it is not one a user can fix. */
export const listenProblem = (host: string, port: number, error: unknown): StartupError | undefined => {
  const code = codeOf(error)
  const h = JSON.stringify(host)
  const message =
    code === "EADDRINUSE"
      ? `port ${port} is already in use; stop the other process or choose another with --port (0 picks a free one)`
      : code === "EACCES"
        ? `no permission to listen on port ${port}; choose a port above 1023 with --port (0 picks a free one)`
        : code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "EAI_FAIL" || code === "EAI_NONAME" || code === "EAI_NODATA"
          ? `host ${h} does not resolve to an address; give an IP address or a resolvable name with --host (${HOSTS})`
          : code === "EADDRNOTAVAIL" || code === "EAFNOSUPPORT"
            ? `cannot listen on host ${h}: it is not an address of this machine; choose one with --host (${HOSTS})`
            : undefined
  return message === undefined ? undefined : new StartupError(message, { cause: error })
}

export const firstLine = (message: string): string => {
  const line = message.split("\n").find((l) => l.trim() !== "") ?? ""
  const flat = line.replace(/\s+/g, " ").trim()
  return flat.length > 300 ? `${flat.slice(0, 297)}...` : flat
}
