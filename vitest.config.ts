import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The outside-project test packs and installs with npm (minutes): `.ci/run` runs it on its own.
    exclude: ["test/outside/**", "**/node_modules/**"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // First the run's own temporary folder (test/support/temp-root.ts; torn down last, after the
    // PostgreSQL cluster that may live in it); then empty the exercised-status records
    // (test/support/coverage.ts) so `pnpm coverage` reads this run's.
    globalSetup: ["test/support/temp-root.ts", "test/support/coverage-setup.ts", "test/support/postgres-setup.ts"]
  }
})
