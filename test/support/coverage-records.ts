// The exercised-status records behind the coverage report (test/support/coverage.ts): the HTTP
// tests' `request` (test/support/server.ts) appends one line per new (operationId, status) pair per
// process to `.coverage-statuses/<pid>.jsonl` at the repository root (gitignored); vitest's global
// setup empties the folder when a run starts. No engine imports here, so the global setup stays light.
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import { repoRoot } from "./paths.ts"

/** Where the test processes append their exercised (operationId, status) pairs. */
export const STATUS_DIR = join(repoRoot, ".coverage-statuses")

export interface StatusRecord {
  readonly operationId: string
  readonly status: number
}

const seen = new Set<string>()
let recordFile: string | undefined
let recordingBroken = false

/**
 * Records that a response of `status` was seen for `operationId`. Cheap (one short synchronous
 * append per new pair in this process) and never throws: a failure to record turns recording off.
 */
export const recordStatus = (operationId: string | undefined, status: number): void => {
  if (operationId === undefined || recordingBroken) return
  const key = `${operationId} ${status}`
  if (seen.has(key)) return
  seen.add(key)
  try {
    if (recordFile === undefined) {
      mkdirSync(STATUS_DIR, { recursive: true })
      recordFile = join(STATUS_DIR, `${process.pid}.jsonl`)
    }
    appendFileSync(recordFile, JSON.stringify({ operationId, status }) + "\n")
  } catch {
    recordingBroken = true
  }
}

/** Empties the records folder (the start of a test run). */
export const clearStatusRecords = (): void => {
  rmSync(STATUS_DIR, { recursive: true, force: true })
}

/** The recorded pairs of the last run, or undefined when there are none. Unreadable lines are skipped. */
export const readStatusRecords = (dir: string = STATUS_DIR): ReadonlyArray<StatusRecord> | undefined => {
  if (!existsSync(dir)) return undefined
  const records: Array<StatusRecord> = []
  for (const name of readdirSync(dir)) {
    if (!name.endsWith(".jsonl")) continue
    for (const line of readFileSync(join(dir, name), "utf8").split("\n")) {
      if (line.trim() === "") continue
      try {
        const r = JSON.parse(line) as Partial<StatusRecord>
        if (typeof r.operationId === "string" && typeof r.status === "number") records.push({ operationId: r.operationId, status: r.status })
      } catch {
        // a line cut short by a killed worker
      }
    }
  }
  return records.length === 0 ? undefined : records
}
