import type pg from "pg"
import { type Migration, migrations } from "./migrations/index.ts"

/** A schema name used unquoted-safe in SQL: lower-case letters, digits and underscores. */
export const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/

/**
 * Applies the migrations not applied yet to `schema` (created if missing). Several instances
 * starting at once on an empty database take turns: a session-level advisory lock keyed by the
 * schema is held from before the schema exists until the last version is recorded, so exactly
 * one applies each version and the others find it applied.
 */
export const migrate = async (pool: pg.Pool, schema: string, list: ReadonlyArray<Migration> = migrations): Promise<void> => {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`invalid PostgreSQL schema name: ${schema}`)
  const client = await pool.connect()
  let broken: Error | undefined
  try {
    await client.query("SELECT pg_advisory_lock(hashtext($1))", [`tessera-migrations:${schema}`])
    try {
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`)
      await client.query(`SET search_path TO "${schema}"`)
      await client.query("CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())")
      const applied = new Set((await client.query<{ version: number }>("SELECT version FROM schema_migrations")).rows.map((r) => r.version))
      for (const m of list) {
        if (applied.has(m.version)) continue
        await client.query("BEGIN")
        try {
          if (m.sql !== undefined) await client.query(m.sql)
          if (m.run !== undefined) await m.run(client)
          await client.query("INSERT INTO schema_migrations (version) VALUES ($1)", [m.version])
          await client.query("COMMIT")
        } catch (e) {
          await client.query("ROLLBACK").catch(() => undefined)
          throw e
        }
      }
    } finally {
      await client.query("SELECT pg_advisory_unlock(hashtext($1))", [`tessera-migrations:${schema}`]).catch((e: Error) => {
        broken = e
      })
    }
  } finally {
    // A connection whose unlock failed is dropped, which releases the lock with it.
    client.release(broken)
  }
}
