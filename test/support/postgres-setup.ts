// Vitest global setup: the PostgreSQL server the Postgres tests run against. `.ci/run` starts a
// throwaway cluster and exports TESSERA_TEST_PG_URL; without it, when PostgreSQL is installed,
// this starts one of its own for the run and stops it after (so `pnpm test` needs nothing
// started by hand). Without either the Postgres tests fail, saying why (test/support/postgres.ts).
import { findPgBin, startCluster, stopCluster } from "../../scripts/pg-cluster.mjs"

export default function setup(): (() => void) | undefined {
  if (process.env.TESSERA_TEST_PG_URL !== undefined && process.env.TESSERA_TEST_PG_URL !== "") return undefined
  if (findPgBin() === undefined) return undefined
  let cluster: { readonly url: string; readonly dir: string }
  try {
    cluster = startCluster()
  } catch (e) {
    // Only the Postgres tests fail then (each saying this), not the whole run.
    process.env.TESSERA_TEST_PG_START_ERROR = e instanceof Error ? e.message.split("\n")[0] : String(e)
    return undefined
  }
  // Workers are forked after global setup, with this environment.
  process.env.TESSERA_TEST_PG_URL = cluster.url
  return () => stopCluster(cluster.dir)
}
