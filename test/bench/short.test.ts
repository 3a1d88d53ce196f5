// CI runs every benchmark briefly (`pnpm bench --short`) so the benches keep working: each part
// must finish and print JSON in which every figure and its baseline is present. No thresholds:
// on a shared machine the figures of a short run mean nothing.
import { spawn } from "node:child_process"
import { mkdtempSync, readdirSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { repoRoot } from "../support/paths.ts"
import { passable, tempEnv } from "../support/temp-root.ts"

/** The bench run's temporary directory: empty again once the run is over. */
const benchTemp = mkdtempSync(join(tmpdir(), "short-bench-"))
passable(benchTemp)

const runShort = () =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "./bench/plain-ts.mjs", "bench/run.ts", "--short"], {
      cwd: join(repoRoot, "test"),
      env: { ...process.env, ...tempEnv(benchTemp) },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()))
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()))
    child.on("error", reject)
    child.on("exit", (code) => resolve({ code, stdout, stderr }))
  })

/** Every leaf that is not a finite number or a string: a figure that went missing (NaN prints as null). */
const missing = (v: unknown, path = ""): Array<string> => {
  if (v === null || v === undefined) return [path]
  if (typeof v === "number") return Number.isFinite(v) ? [] : [path]
  if (typeof v !== "object") return []
  return Object.entries(v).flatMap(([k, x]) => missing(x, `${path}.${k}`))
}

const at = (o: any, path: string): unknown => path.split(".").reduce((x, k) => x?.[k], o)

describe("pnpm bench --short", () => {
  it("runs every part and prints every figure beside its baseline", { timeout: 600_000 }, async () => {
    const r = await runShort()
    expect(r.code, r.stderr).toBe(0)
    // Its databases, logs and bundles (~1 GB in a full run) were removed with it.
    expect(readdirSync(benchTemp)).toEqual([])
    const out = JSON.parse(r.stdout)
    expect(out.short).toBe(true)
    expect(Object.keys(out)).toEqual(
      expect.arrayContaining(["in-process", "cold-start", "http", "flows", "list-page", "wallet", "ownership", "webauthn", "due-outcomes", "ledger", "quotes", "postgres"])
    )
    expect(missing(out)).toEqual([])
    // The table: each figure with its same-run baseline and ratio.
    for (const figure of [
      "http.getById.memory",
      "http.getById.sqlite",
      "http.postCustomers.memoryVsBare",
      "http.postCustomers.sqliteVsBare",
      "http.postCustomers.sqliteVsRawLoop",
      "flows.memory",
      "flows.sqlite"
    ])
      for (const k of ["tessera", "baseline", "ratio"]) expect(typeof at(out, `${figure}.${k}`), `${figure}.${k}`).toBe("number")
    for (const k of ["tesseraMs", "bareMs", "ratio"]) expect(typeof at(out, `cold-start.${k}`), k).toBe("number")
    // And the CLI as its tarball installs it (DECISIONS #530).
    for (const k of ["tesseraMs", "bareMs", "ratio"]) expect(typeof at(out, `cold-start.installed.${k}`), k).toBe("number")
    // Where node's every start parses extra CA certificates, the pairs are taken without them too.
    if ((process.env["NODE_EXTRA_CA_CERTS"] ?? "") !== "")
      for (const k of ["tesseraMs", "bareMs", "ratio"]) expect(typeof at(out, `cold-start.withoutExtraCaCerts.${k}`), k).toBe("number")
    for (const k of ["memory", "sqlite", "rawBetterSqlite3Baseline", "sqliteVsRaw"]) expect(typeof at(out, `in-process.creationsPerSec.${k}`), k).toBe("number")
    // In-process creations at three fixed world sizes too, each saying how large the store was.
    // Each beside its baseline, the same records written into plain Maps (raw-maps.ts).
    const atSize = Object.values(out["in-process"].creationsPerSec.memoryAtCustomers) as Array<{ perSec: unknown; rawMapsBaseline: unknown; vsRawMaps: unknown; samples: Array<{ customersHeld: unknown }> }>
    expect(atSize).toHaveLength(3)
    for (const f of atSize) expect([typeof f.perSec, typeof f.rawMapsBaseline, typeof f.vsRawMaps, typeof f.samples[0]?.customersHeld]).toEqual(["number", "number", "number", "string"])
    // The baselines answer Tessera's bytes (the bench refuses to run otherwise; shown here too).
    for (const what of ["http.sameBytes.get", "http.sameBytes.post", "flows.sameBytes.leg1", "flows.sameBytes.leg2"])
      expect(at(out, `${what}.bare`), what).toEqual(at(out, `${what}.tessera`))
    // List pages: three sizes per store, the first and a later page, each beside its baseline.
    for (const store of ["memory", "sqlite"]) {
      const sizes = Object.keys(out["list-page"][store])
      expect(sizes).toHaveLength(3)
      for (const n of sizes) for (const page of ["first", "later"]) for (const k of ["tessera", "baseline", "ratio"]) expect(typeof out["list-page"][store][n][page][k]).toBe("number")
    }
  })
})
