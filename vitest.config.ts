import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The outside-project test packs and installs with npm (minutes): `.ci/run` runs it on its own.
    exclude: ["test/outside/**", "**/node_modules/**"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // Empties the exercised-status records (test/support/coverage.ts) so `pnpm coverage` reads this run's.
    globalSetup: ["test/support/coverage-setup.ts", "test/support/postgres-setup.ts"]
  }
})
