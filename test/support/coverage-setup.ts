// Vitest global setup: a run starts with no exercised-status records, so the coverage report
// (test/support/coverage.ts, `pnpm coverage`) reads those of the last run only.
import { clearStatusRecords } from "./coverage-records.ts"

export default function setup(): void {
  clearStatusRecords()
}
