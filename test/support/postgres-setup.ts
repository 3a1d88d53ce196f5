// Vitest global setup: the PostgreSQL server the Postgres tests run against. `.ci/run` starts a
// throwaway cluster and exports TESSERA_TEST_PG_URL; without it, when PostgreSQL is installed,
// this starts one of its own for the run and stops it after (so `pnpm test` needs nothing
// started by hand). Without either the Postgres tests fail, saying why (test/support/postgres.ts).
import { findPgBin, startCluster, stopCluster } from "../../scripts/pg-cluster.mjs"

export default function setup(): (() => void) | undefined {
  if (process.env.TESSERA_TEST_PG_URL !== undefined && process.env.TESSERA_TEST_PG_URL !== "") return undefined
  if (findPgBin() === undefined) return undefined
  const { url, dir } = startCluster()
  // Workers are forked after global setup, with this environment.
  process.env.TESSERA_TEST_PG_URL = url
  return () => stopCluster(dir)
}
