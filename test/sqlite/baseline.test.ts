// A new SQLite file starts from the baseline, what migrations 1 to 4 leave, made in one step
// (DECISIONS #505). It must be that very database: the same tables, indexes and their text, the
// same sequence and recorded versions, and later versions must apply to it as to a migrated one.
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Database from "better-sqlite3"
import { describe, expect, it } from "vitest"
import { Effect } from "effect"
import { Customers } from "@tessera/core"
import { BASELINE, makeSqliteStore, type Migration, migrate, migrations, openDatabase, reindex } from "@tessera/adapter-sqlite"
import { customerRecord as customer } from "./customer-fixture.ts"

const freshFile = () => join(mkdtempSync(join(tmpdir(), "tessera-baseline-")), "store.sqlite")

type Db = ReturnType<typeof openDatabase>
const shape = (db: Db) => ({
  schema: db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").all(),
  sequence: db.prepare("SELECT name, seq FROM sqlite_sequence ORDER BY name").all(),
  versions: db.prepare("SELECT version FROM schema_migrations ORDER BY version").pluck().all()
})

/** A new file migrated with `list`, recording the SQL text each `exec` ran. */
const migrated = (list: ReadonlyArray<Migration>, stepwise: boolean) => {
  const db = new Database(freshFile())
  const executed: Array<string> = []
  const exec = db.exec.bind(db)
  db.exec = (sql: string) => {
    executed.push(sql)
    return exec(sql)
  }
  migrate(db, list, stepwise)
  return { db, executed }
}

describe("a new SQLite file", () => {
  it("starts from the baseline, which is exactly what applying migrations 1 to 4 in order leaves", () => {
    expect(BASELINE.version).toBe(4)
    expect(migrations.slice(0, 4).map((m) => m.version)).toEqual([1, 2, 3, 4])
    const baseline = migrated(migrations, false)
    const stepwise = migrated(migrations, true)
    // The baseline ran, and no version's own SQL did; stepwise, each version's did.
    expect(baseline.executed).toContain(BASELINE.sql)
    expect(baseline.executed.filter((sql) => migrations.some((m) => m.sql === sql))).toEqual([])
    expect(stepwise.executed).not.toContain(BASELINE.sql)
    expect(stepwise.executed).toContain(migrations[0]!.sql)
    expect(shape(baseline.db).schema.length).toBeGreaterThan(5)
    expect(shape(baseline.db)).toEqual(shape(stepwise.db))
    expect(shape(baseline.db).versions).toEqual([1, 2, 3, 4])
    // openDatabase takes the same path as migrate's default.
    const opened = openDatabase({ filename: freshFile() })
    expect(shape(opened)).toEqual(shape(baseline.db))
    for (const db of [baseline.db, stepwise.db, opened]) db.close()
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
    // A new file given versions 1 to 5 starts from the baseline and applies 5: as one that took them one by one.
    const fresh = migrated([...migrations, later], false)
    expect(fresh.executed).toContain(BASELINE.sql)
    const stepwise = migrated([...migrations, later], true)
    expect(shape(fresh.db)).toEqual(shape(stepwise.db))
    expect(shape(reopened).schema).toEqual(shape(fresh.db).schema)
    for (const db of [reopened, fresh.db, stepwise.db]) db.close()
  })

  it("is migrated version by version when given a list that does not begin with the package's versions 1 to 4", () => {
    const upTo2 = migrated(migrations.filter((m) => m.version <= 2), false)
    expect(upTo2.executed).not.toContain(BASELINE.sql)
    expect(shape(upTo2.db).versions).toEqual([1, 2])
    upTo2.db.close()
  })
})
