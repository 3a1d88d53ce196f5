import { readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { describe, expect, it } from "vitest"
import { referenceFacts } from "@tessera/adapter-http/openapi"
import { computeCoverage, readStatusRecords, servedOperationIds } from "../support/coverage.ts"
import { repoRoot } from "../support/paths.ts"

const readme = readFileSync(resolve(repoRoot, "README.md"), "utf8")

describe("coverage report", () => {
  const report = computeCoverage([])

  it("the README states the served / total numbers the report computes", () => {
    const m = /\*\*(\d+) of (\d+) reference operations served\*\*/.exec(readme)
    expect(m, "README must carry the line '**N of T reference operations served**'").not.toBeNull()
    expect({ served: Number(m![1]), total: Number(m![2]) }).toEqual({ served: report.summary.served, total: report.summary.total })
    expect(report.summary.total).toBe(Object.keys(referenceFacts.operations).length)
  })

  it("every served operation is a reference operationId or one of Tessera's own (tessera.*)", () => {
    expect(report.unknown).toEqual([])
    for (const id of servedOperationIds()) {
      if (!id.startsWith("tessera.")) expect(Object.hasOwn(referenceFacts.operations, id), id).toBe(true)
    }
  })

  it("served and unserved partition the reference operations", () => {
    const unserved = Object.values(report.unserved).flat()
    expect(Object.keys(report.operations).length + unserved.length).toBe(report.summary.total)
    expect(report.summary.served + report.summary.notServed).toBe(report.summary.total)
    expect(new Set([...Object.keys(report.operations), ...unserved]).size).toBe(report.summary.total)
  })

  it("counts exercised statuses from records, declared ones only, below 500", () => {
    const [id] = Object.keys(report.operations)
    const op = report.operations[id!]!
    const declared = op.declared.filter((s) => s < 500)
    const r = computeCoverage([
      { operationId: id!, status: declared[0]! },
      { operationId: id!, status: declared[0]! },
      { operationId: id!, status: 599 },
      { operationId: "tessera.notAReferenceOperation", status: 200 }
    ])
    expect(r.records).toBe("present")
    expect(r.summary.exercisedStatuses).toBe(1)
    expect(r.operations[id!]!.exercised).toEqual([declared[0], 599])
    expect(r.operations[id!]!.undeclared).toEqual([599])
    expect(r.operations[id!]!.notExercised).toEqual(declared.slice(1))
    // No test run has left records (a folder that does not exist): the report says so.
    expect(computeCoverage(readStatusRecords(join(tmpdir(), `tessera-no-records-${process.pid}`))).records).toBe("absent")
  })
})
