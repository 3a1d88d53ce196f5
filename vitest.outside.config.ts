import { defineConfig } from "vitest/config"

// The outside-project test (test/outside/): packs, installs with npm into a temp project and
// checks the packages there. Separate from `pnpm test` because it takes minutes; `.ci/run` runs it.
export default defineConfig({
  test: {
    include: ["test/outside/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 900_000,
    pool: "forks",
    // The packed tarballs and the temp project go in the run's own temporary folder, removed after.
    globalSetup: ["test/support/temp-root.ts"]
  }
})
