// `pnpm bench`: every figure beside a baseline measured in the same run, printed as JSON.
// `pnpm bench <part>` runs one part; `pnpm bench --short` (or BENCH_SHORT=1) runs every part
// briefly, as CI does to keep the benches working (its figures mean nothing).
import { cpus } from "node:os"
import { useTempRoot } from "../support/temp-root.ts"
import { SECONDS, SHORT } from "./rounds.ts"

// The older parts read BENCH_SECONDS when they run.
process.env["BENCH_SECONDS"] ??= String(SECONDS)

const parts: Record<string, () => Promise<unknown>> = {
  "in-process": async () => (await import("./in-process.ts")).inProcessBench(),
  "cold-start": async () => (await import("./cold-start.ts")).coldStart(),
  http: async () => (await import("./http.ts")).httpBench(),
  flows: async () => (await import("./flows.ts")).flowsBench(),
  "list-page": async () => (await import("./list-page.ts")).listPageBench(),
  wallet: async () => (await import("./wallet.ts")).walletBench(),
  ownership: async () => (await import("./ownership.ts")).ownershipBench(),
  webauthn: async () => (await import("./webauthn.ts")).webauthnBench(),
  "due-outcomes": async () => (await import("./due-outcomes.ts")).dueOutcomesBench(),
  ledger: async () => (await import("./ledger.ts")).ledgerBench(),
  quotes: async () => (await import("./quotes.ts")).quotesBench(),
  postgres: async () => (await import("./postgres.ts")).postgresBench()
}

const only = process.argv.slice(2).filter((a) => !a.startsWith("--"))
for (const name of only) if (!(name in parts)) throw new Error(`unknown part ${name}; parts: ${Object.keys(parts).join(", ")}`)
// The parts' databases, logs and servers' files go in one folder, removed when the run ends,
// a part's failure included (test/support/temp-root.ts): a full run writes ~1 GB there. A run
// that is interrupted leaves it, since the servers and the PostgreSQL cluster of the part it was
// in may still be using it.
const removeTemp = useTempRoot("tessera-bench-run-")
const out: Record<string, unknown> = { node: process.version, cpus: cpus().length, date: new Date().toISOString(), short: SHORT }
try {
  for (const [name, run] of Object.entries(parts)) {
    if (only.length > 0 && !only.includes(name)) continue
    const t = performance.now()
    out[name] = await run()
    process.stderr.write(`bench ${name}: ${Math.round((performance.now() - t) / 100) / 10} s\n`)
  }
} finally {
  removeTemp()
}
process.stdout.write(JSON.stringify(out, null, 2) + "\n")
process.exit(0)
