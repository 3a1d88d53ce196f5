// `pnpm coverage`: prints the coverage report (test/support/coverage.ts) as JSON: reference
// operations served and not served (by group), and per served operation the statuses the reference
// declares against those the last test run exercised (run `pnpm test` first for the latter).
import { computeCoverage, readStatusRecords } from "./coverage.ts"

process.stdout.write(JSON.stringify(computeCoverage(readStatusRecords()), null, 2) + "\n")
