// A new SQLite file starts from the baseline, what migrations 1 to 4 leave, made in one step
// (DECISIONS #505). It must be that very database: the same tables, indexes and their text, the
// same sequence and recorded versions, and later versions must apply to it as to a migrated one.
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { Effect } from "effect"
import { Customers } from "@tessera/core"
import { BASELINE, makeSqliteStore, type Migration, migrations, openDatabase, reindex } from "@tessera/adapter-sqlite"
import { customerRecord as customer } from "./customer-fixture.ts"

const freshFile = () => join(mkdtempSync(join(tmpdir(), "tessera-baseline-")), "store.sqlite")

type Db = ReturnType<typeof openDatabase>
const shape = (db: Db) => ({
  schema: db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").all(),
  sequence: db.prepare("SELECT name, seq FROM sqlite_sequence ORDER BY name").all(),
  versions: db.prepare("SELECT version FROM schema_migrations ORDER BY version").pluck().all()
})

describe("a new SQLite file", () => {
  it("starts from the baseline, which is exactly what applying migrations 1 to 4 in order leaves", () => {
    expect(BASELINE.version).toBe(4)
    expect(migrations.map((m) => m.version)).toEqual([1, 2, 3, 4])
    const baseline = openDatabase({ filename: freshFile() })
    // A copy of the list is applied version by version.
    const stepwise = openDatabase({ filename: freshFile() }, [...migrations])
    expect(shape(baseline).schema.length).toBeGreaterThan(5)
    expect(shape(baseline)).toEqual(shape(stepwise))
    expect(shape(baseline).versions).toEqual([1, 2, 3, 4])
    baseline.close()
    stepwise.close()
  })

  it("takes a later version on top of the baseline as a migrated file does, and a file with tables is never rebuilt from it", async () => {
    const later: Migration = { version: 5, sql: "CREATE INDEX records_by_id ON records (id);", run: (db) => reindex(db, [Customers]) }
    const filename = freshFile()
    const first = openDatabase({ filename })
    await Effect.runPromise(makeSqliteStore(first).put(Customers, "p1", customer(1)))
    first.close()
    // Reopened with a version 5: the record is kept and 5 applies; the baseline is not made again.
    const reopened = openDatabase({ filename }, [...migrations, later])
    expect(shape(reopened).versions).toEqual([1, 2, 3, 4, 5])
    expect(await Effect.runPromise(makeSqliteStore(reopened).get(Customers, "p1", customer(1).id))).toMatchObject({ _tag: "Some" })
    const fresh = openDatabase({ filename: freshFile() }, [...migrations, later])
    expect(shape(reopened).schema).toEqual(shape(fresh).schema)
    reopened.close()
    fresh.close()
  })
})
