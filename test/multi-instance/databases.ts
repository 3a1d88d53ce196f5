import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

/** One database the instances of a test share, and how to pass it to `tessera serve`. */
export interface Database {
  /** What `--db` is given. */
  readonly url: string
  /** Extra environment for the server processes. */
  readonly env: Record<string, string>
  /** Removes the database once the test's instances have stopped. */
  readonly drop: () => Promise<void>
}

export interface DatabaseKind {
  readonly name: string
  /** A fresh, empty database for one test. */
  readonly fresh: () => Promise<Database>
}

/** Several processes on one SQLite file (WAL) already work: the harness runs on it everywhere. */
const sqlite: DatabaseKind = {
  name: "sqlite",
  fresh: async () => {
    const dir = mkdtempSync(join(tmpdir(), "tessera-multi-"))
    return { url: join(dir, "shared.sqlite"), env: {}, drop: async () => rmSync(dir, { recursive: true, force: true }) }
  }
}

/** The databases the multi-instance tests run on here. */
export const databaseKinds: ReadonlyArray<DatabaseKind> = [sqlite]
