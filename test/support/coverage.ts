/**
 * The coverage report the project computes itself (issue 13): the reference OpenAPI's operations
 * (`referenceFacts.operations`, by operationId), which of them Tessera serves (the route table,
 * derived from the core's endpoint table; Tessera's own `tessera.*` operations are not reference
 * operations), and which response statuses the HTTP tests have exercised for each.
 *
 * Exercised statuses are recorded by `test/support/server.ts`'s `request` (every response it checks
 * against the reference), one small line per new (operationId, status) pair per process, into
 * `.coverage-statuses/<pid>.jsonl` at the repository root (gitignored; see `coverage-records.ts`).
 * Vitest's global setup (`coverage-setup.ts`) empties the folder at the start of each run, so the
 * records are those of the last run. `pnpm coverage` prints the report as JSON.
 */
import { routes } from "@tessera/adapter-http"
import { referenceFacts } from "@tessera/adapter-http/openapi"
import { readStatusRecords, type StatusRecord } from "./coverage-records.ts"

export { readStatusRecords, type StatusRecord }

/** The group of a reference operation: the first segment of its path (`/customers/{id}` → `customers`). */
export const groupOf = (path: string): string => path.split("/")[1] ?? ""

export interface OperationCoverage {
  readonly method: string
  readonly path: string
  readonly group: string
  /** The statuses the reference declares for the operation, ascending. */
  readonly declared: ReadonlyArray<number>
  /** The statuses the last test run saw, ascending (absent when there are no records). */
  readonly exercised?: ReadonlyArray<number>
  /** Declared, below 500, and not exercised (absent when there are no records). */
  readonly notExercised?: ReadonlyArray<number>
  /** Exercised but not declared: the HTTP layer's own answers (405, 413, 415, …) the checker allows as stated deviations. */
  readonly undeclared?: ReadonlyArray<number>
}

export interface CoverageReport {
  readonly referenceVersion: string
  readonly summary: {
    readonly total: number
    readonly served: number
    readonly notServed: number
    /** Tessera's own operations (`tessera.*`), served but not in the reference. */
    readonly tesseraOperations: number
    /** Over the served operations, statuses below 500 (the tests assert a response is never a 5xx). */
    readonly declaredStatuses: number
    /** How many of `declaredStatuses` the last test run exercised; absent without records. */
    readonly exercisedStatuses?: number
  }
  /** Whether exercised statuses come from records of a test run. */
  readonly records: "present" | "absent"
  /** Reference operations Tessera does not serve, by group. */
  readonly unserved: Readonly<Record<string, ReadonlyArray<string>>>
  /** Served operationIds that are neither reference operations nor `tessera.*` (expected empty). */
  readonly unknown: ReadonlyArray<string>
  readonly tessera: ReadonlyArray<string>
  /** Per served reference operation, by operationId. */
  readonly operations: Readonly<Record<string, OperationCoverage>>
}

const ascending = (xs: Iterable<number>): Array<number> => [...new Set(xs)].sort((a, b) => a - b)

/** The served operationIds of the route table (each once). */
export const servedOperationIds = (): ReadonlyArray<string> => [...new Set(routes.map((r) => r.operationId))]

/** `records`: what a test run left (`readStatusRecords()`), or undefined when none did. No default: an explicit undefined must mean "absent". */
export const computeCoverage = (records: ReadonlyArray<StatusRecord> | undefined): CoverageReport => {
  const reference = referenceFacts.operations
  const served = servedOperationIds()
  const tessera = served.filter((id) => id.startsWith("tessera.")).sort()
  const servedReference = new Set(served.filter((id) => Object.hasOwn(reference, id)))
  const unknown = served.filter((id) => !id.startsWith("tessera.") && !Object.hasOwn(reference, id)).sort()
  const exercisedBy = new Map<string, Set<number>>()
  for (const r of records ?? []) {
    let s = exercisedBy.get(r.operationId)
    if (s === undefined) exercisedBy.set(r.operationId, (s = new Set()))
    s.add(r.status)
  }
  const unserved: Record<string, Array<string>> = {}
  const operations: Record<string, OperationCoverage> = {}
  let declaredStatuses = 0
  let exercisedStatuses = 0
  for (const id of Object.keys(reference).sort()) {
    const op = reference[id]!
    const group = groupOf(op.path)
    if (!servedReference.has(id)) {
      ;(unserved[group] ??= []).push(id)
      continue
    }
    const declared = ascending(Object.keys(op.responses).map(Number).filter(Number.isInteger))
    const base = { method: op.method.toUpperCase(), path: op.path, group, declared }
    const countable = declared.filter((s) => s < 500)
    declaredStatuses += countable.length
    if (records === undefined) {
      operations[id] = base
      continue
    }
    const exercised = ascending(exercisedBy.get(id) ?? [])
    const notExercised = countable.filter((s) => !exercised.includes(s))
    exercisedStatuses += countable.length - notExercised.length
    operations[id] = { ...base, exercised, notExercised, undeclared: exercised.filter((s) => !declared.includes(s)) }
  }
  const total = Object.keys(reference).length
  return {
    referenceVersion: referenceFacts.version,
    summary: {
      total,
      served: servedReference.size,
      notServed: total - servedReference.size,
      tesseraOperations: tessera.length,
      declaredStatuses,
      ...(records === undefined ? {} : { exercisedStatuses })
    },
    records: records === undefined ? "absent" : "present",
    unserved,
    unknown,
    tessera,
    operations
  }
}
