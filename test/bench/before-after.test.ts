// The before/after comparison (before-after.ts) keeps working: run briefly against this checkout
// itself, it measures both sides of both figures and prints each beside the other. No thresholds.
import { execFile } from "node:child_process"
import { join } from "node:path"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"
import { repoRoot } from "../support/paths.ts"

describe("bench/before-after.ts", () => {
  it("measures POST /customers on SQLite and in-process creations of two checkouts, interleaved", { timeout: 120_000 }, async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "./bench/plain-ts.mjs", "bench/before-after.ts", repoRoot], {
      cwd: join(repoRoot, "test"),
      env: { ...process.env, BENCH_SHORT: "1" }
    })
    const out = JSON.parse(stdout)
    expect(out.before).toBe(repoRoot)
    for (const figure of [out.postCustomersSqlite, out.inProcessCreations]) {
      expect(figure.samples.tessera).toHaveLength(2)
      expect(figure.samples.baseline).toHaveLength(2)
      for (const rate of [...figure.samples.tessera, ...figure.samples.baseline]) expect(rate).toBeGreaterThan(0)
      expect(figure.ratio).toBeGreaterThan(0)
      expect(typeof figure.target).toBe("string")
    }
  })

  it("refuses to run without a checkout to compare with", async () => {
    const failed = await promisify(execFile)(process.execPath, ["--import", "./bench/plain-ts.mjs", "bench/before-after.ts"], { cwd: join(repoRoot, "test") }).catch((e: { stderr: string }) => e)
    expect((failed as { stderr: string }).stderr).toContain("usage: before-after.ts CHECKOUT")
  })
})
