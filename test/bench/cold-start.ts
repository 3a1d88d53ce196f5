import { spawn } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { repoRoot } from "../support/paths.ts"

/** Spawn-to-first-answer time of the standalone server (`tessera serve`, SQLite default). */
export const coldStart = async (runs = 3) => {
  const results: Array<{ spawnToListeningMs: number; spawnToFirstResponseMs: number; reportedReadyMs: number }> = []
  for (let i = 0; i < runs; i++) {
    const db = join(mkdtempSync(join(tmpdir(), "tessera-cold-")), "c.sqlite")
    const t0 = performance.now()
    const child = spawn(process.execPath, ["--import", "tsx", join(repoRoot, "packages/adapter-http/src/cli.ts"), "serve"], {
      env: { ...process.env, PORT: "0", TESSERA_DB: db, TESSERA_LOG: "off" },
      stdio: ["ignore", "pipe", "inherit"]
    })
    const { url, ready } = await new Promise<{ url: string; ready: number }>((resolve) => {
      let out = ""
      child.stdout!.on("data", (d: Buffer) => {
        out += d.toString()
        const m = /listening on (\S+)[\s\S]*ready in (\d+) ms/.exec(out)
        if (m) resolve({ url: m[1]!, ready: Number(m[2]) })
      })
    })
    const listening = performance.now() - t0
    await fetch(`${url}/customers`)
    const first = performance.now() - t0
    child.kill("SIGTERM")
    results.push({ spawnToListeningMs: Math.round(listening), spawnToFirstResponseMs: Math.round(first), reportedReadyMs: ready })
  }
  return { runs: results, note: "includes Node start-up and tsx transpilation; reportedReadyMs is engine+store+listen inside the process" }
}
