import { parseArgs } from "node:util"
import { runFuzz } from "./run-fuzz.ts"

/** `pnpm fuzz [--requests N] [--seed S] [--concurrency C]`: prints the report as JSON; exit 1 on any failure. */
const { values } = parseArgs({
  options: { requests: { type: "string", default: "100000" }, seed: { type: "string", default: "20251013" }, concurrency: { type: "string", default: "16" } }
})
const report = await runFuzz({ requests: Number(values.requests), seed: Number(values.seed), concurrency: Number(values.concurrency) })
console.log(JSON.stringify(report, null, 2))
process.exit(report.failureCount === 0 && report.shutdown.code === 0 && report.stderr === "" ? 0 : 1)
