import { existsSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import Database from "better-sqlite3"
import { BASELINE, type Migration, migrations } from "./migrations/index.ts"

/** Log pages (4 KiB each) after which a commit checkpoints, with group commit (SQLite's default: 1000). */
export const WAL_AUTOCHECKPOINT_PAGES = 10_000

export interface SqliteStoreOptions {
  readonly filename: string
  /** How long a writer waits for another process's write lock before failing (ms). */
  readonly busyTimeoutMs?: number
  /**
   * Group commit (default on, DECISIONS #310): transactions commit with synchronous=NORMAL and
   * share one fsync of the log, awaited before any request that wrote is answered. Off: each
   * commit syncs on its own (synchronous=FULL), as before.
   */
  readonly groupCommit?: boolean
}

/**
 * Applies the migrations of `list` not applied yet, in order (a test of a later version passes
 * the list up to it). A database with no table yet, given a list that begins with this package's
 * versions 1 to `BASELINE.version`, starts from `BASELINE` instead, what those versions leave made
 * in one step (DECISIONS #505), unless `stepwise`; the versions after it apply as on any other
 * database. A version added later goes at the end of `migrations`; `BASELINE` stays as it is.
 */
export const migrate = (db: Database.Database, list: ReadonlyArray<Migration> = migrations, stepwise = false): void => {
  db.exec("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)")
  // BEGIN IMMEDIATE so two processes opening a new file at once cannot both apply version 1.
  db.exec("BEGIN IMMEDIATE")
  try {
    const applied = new Set(
      (db.prepare("SELECT version FROM schema_migrations").all() as Array<{ version: number }>).map((r) => r.version)
    )
    const record = db.prepare("INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)")
    const baselined = migrations.slice(0, BASELINE.version)
    const fromBaseline =
      !stepwise &&
      baselined.every((m, i) => list[i] === m) &&
      applied.size === 0 &&
      db.prepare("SELECT count(*) FROM sqlite_master WHERE name <> 'schema_migrations'").pluck().get() === 0
    if (fromBaseline) {
      db.exec(BASELINE.sql)
      const at = new Date().toISOString()
      for (const m of baselined) {
        record.run(m.version, at)
        applied.add(m.version)
      }
    }
    for (const m of list) {
      if (applied.has(m.version)) continue
      if (m.sql !== undefined) db.exec(m.sql)
      m.run?.(db)
      record.run(m.version, new Date().toISOString())
    }
    db.exec("COMMIT")
  } catch (e) {
    db.exec("ROLLBACK")
    throw e
  }
}

/**
 * The native addon of the better-sqlite3 this package imports, where the package builds it
 * (`build/Release`), for `new Database`'s `nativeBinding`. Without it better-sqlite3 finds its
 * addon through the `bindings` package, which reads the call stack and tries a dozen paths: ~3 ms
 * of the first open in a process, which an installed `tessera` pays at every start (DECISIONS
 * #530). Undefined, leaving the search to `bindings`, when the addon is anywhere else.
 */
let addonPath: string | undefined | null = null
const nativeBinding = (): string | undefined => {
  if (addonPath !== null) return addonPath
  try {
    const file = join(dirname(createRequire(import.meta.url).resolve("better-sqlite3/package.json")), "build", "Release", "better_sqlite3.node")
    addonPath = existsSync(file) ? file : undefined
  } catch {
    addonPath = undefined
  }
  return addonPath
}

/**
 * Opens (or creates) the database file: WAL so readers never block the writer; synchronous=NORMAL
 * with group commit (a commit is atomic and ordered in the log; the store syncs the log before a
 * write is answered), else FULL (a commit is on disk when it returns); a busy timeout so a second
 * process waits its turn.
 */
export const openDatabase = (options: SqliteStoreOptions, list: ReadonlyArray<Migration> = migrations): Database.Database => {
  const addon = nativeBinding()
  const db = new Database(options.filename, addon === undefined ? {} : { nativeBinding: addon })
  db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`)
  db.pragma("journal_mode = WAL")
  if (options.groupCommit === false) db.pragma("synchronous = FULL")
  else {
    db.pragma("synchronous = NORMAL")
    // A checkpoint syncs the log and the database file on the event loop, and every commit
    // rewrites the same hot pages: one every ~40 MB of log instead of every ~4 MB (#312).
    db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`)
    // Each write transaction is a savepoint of the group's outer transaction (#480): a page it
    // changes that the group had already changed is first copied to the savepoint's journal,
    // which by default is a temporary file; in memory that copy is a memcpy (#480).
    db.pragma("temp_store = MEMORY")
  }
  db.pragma("foreign_keys = ON")
  migrate(db, list)
  return db
}
