import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { openPool } from "@tessera/adapter-postgres"
import { freshSchema, pgUrl } from "../support/postgres.ts"

/** One database the instances of a test share, and how to pass it to `tessera serve`. */
export interface Database {
  /** What `--db` is given. */
  readonly url: string
  /** Removes the database once the test's instances have stopped. */
  readonly drop: () => Promise<void>
}

export interface DatabaseKind {
  readonly name: string
  /** A fresh, empty database for one test. */
  readonly fresh: () => Promise<Database>
}

/** Several processes on one SQLite file (WAL). */
const sqlite: DatabaseKind = {
  name: "sqlite",
  fresh: async () => {
    const dir = mkdtempSync(join(tmpdir(), "tessera-multi-"))
    return { url: join(dir, "shared.sqlite"), drop: async () => rmSync(dir, { recursive: true, force: true }) }
  }
}

/** Runs one statement on the test server's maintenance database. */
const admin = async (sql: string) => {
  const pool = openPool({ url: pgUrl(), schema: "public", poolSize: 1 })
  try {
    await pool.query(sql)
  } finally {
    await pool.end()
  }
}

/**
 * A database of its own on the test server (`TESSERA_TEST_PG_URL`, or the cluster the test run
 * starts): the servers are other processes, given a URL and no schema, so a test cannot share a
 * database with another and keep it empty. Dropped with FORCE: a server's pool may outlive its exit.
 */
const postgres: DatabaseKind = {
  name: "postgres",
  fresh: async () => {
    const name = freshSchema("multi")
    await admin(`CREATE DATABASE "${name}"`)
    const url = new URL(pgUrl())
    url.pathname = `/${name}`
    return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) }
  }
}

/** The databases the multi-instance tests run on: every test runs on each. */
export const databaseKinds: ReadonlyArray<DatabaseKind> = [sqlite, postgres]
