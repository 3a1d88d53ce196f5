import { randomBytes } from "node:crypto"
import type { Layer } from "effect"
import type { Store } from "@tessera/core"
import { openPool, PostgresStore } from "@tessera/adapter-postgres"

/**
 * The test server's URL. Missing, the Postgres tests fail (never skip: CI must not pass without
 * them) with what to do about it.
 */
export const pgUrl = (): string => {
  const url = process.env.TESSERA_TEST_PG_URL
  const failedStart = process.env.TESSERA_TEST_PG_START_ERROR
  if ((url === undefined || url === "") && failedStart !== undefined)
    throw new Error(`The PostgreSQL tests could not start a throwaway cluster: ${failedStart}; or set TESSERA_TEST_PG_URL=postgres://… to a database they may create schemas in`)
  if (url === undefined || url === "")
    throw new Error(
      "The PostgreSQL tests need a server: install PostgreSQL (initdb and pg_ctl on PATH or under /usr/lib/postgresql; the test run then starts a throwaway cluster itself), or set TESSERA_TEST_PG_URL=postgres://… to a database they may create schemas in"
    )
  return url
}

/** A schema no other test uses: each store of a test starts empty on the one shared server. */
export const freshSchema = (label = "t"): string => `${label.toLowerCase().replace(/[^a-z0-9_]/g, "_").slice(0, 30)}_${randomBytes(6).toString("hex")}`

/** A Postgres store in `schema` of the test server (several stores on one schema: several instances). */
export const postgresLayer = (schema: string): Layer.Layer<Store> => PostgresStore.layer({ url: pgUrl(), schema, poolSize: 4 })

/** A Postgres store in a fresh schema of the test server. */
export const freshPostgresLayer = (label?: string): Layer.Layer<Store> => postgresLayer(freshSchema(label))

/**
 * A new, empty database on the test server, as a URL: for what runs in another process (a CLI
 * server) and so cannot be handed a schema. Made through the adapter's own pool.
 */
export const freshDatabaseUrl = async (label = "db"): Promise<string> => {
  const name = freshSchema(label)
  const pool = openPool({ url: pgUrl(), schema: "public", poolSize: 1 })
  try {
    await pool.query(`CREATE DATABASE "${name}"`)
  } finally {
    await pool.end()
  }
  const url = new URL(pgUrl())
  url.pathname = `/${name}`
  return url.toString()
}
