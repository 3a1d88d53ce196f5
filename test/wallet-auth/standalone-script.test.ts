import { spawn } from "node:child_process"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { repoRoot } from "../support/paths.ts"
import { runWalletFlows } from "../scripts/wallet-flows.ts"

/** The Done-when script: toolkit + fetch against the standalone server (`tessera serve`). */
describe("wallet flows script against the standalone server", () => {
  it("runs the four credential flows, re-authentication, revocation, export and the negative cases", async () => {
    const child = spawn(process.execPath, [join(repoRoot, "packages/cli/bin/tessera.mjs"), "serve"], {
      env: { ...process.env, PORT: "0", TESSERA_DB: ":memory:", TESSERA_CLOCK: "virtual", TESSERA_LOG: "off" },
      stdio: ["ignore", "pipe", "inherit"]
    })
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = ""
        child.stdout!.on("data", (d: Buffer) => {
          out += d.toString()
          const m = /listening on (\S+)/.exec(out)
          if (m) resolve(m[1]!)
        })
        child.on("exit", (code) => reject(new Error(`server exited ${code}`)))
      })
      const log = await runWalletFlows(url)
      expect(log.length).toBeGreaterThanOrEqual(25)
    } finally {
      child.kill("SIGTERM")
    }
  }, 60_000)
})
