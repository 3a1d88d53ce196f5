import type Database from "better-sqlite3"
import { type Collection, indexKeys } from "@tessera/core"

/** Version 3's tables: index entries by (key, seq), and the counters. */
export const REBUILD_INDEX_TABLES = `
  CREATE TABLE record_index_v3 (
    collection TEXT NOT NULL,
    scope      TEXT NOT NULL,
    name       TEXT NOT NULL,
    key        TEXT NOT NULL,
    seq        INTEGER NOT NULL,
    id         TEXT NOT NULL,
    PRIMARY KEY (collection, scope, name, key, seq)
  ) WITHOUT ROWID;
  INSERT INTO record_index_v3 (collection, scope, name, key, seq, id)
    SELECT i.collection, i.scope, i.name, i.key, r.seq, i.id FROM record_index i
    JOIN records r ON r.collection = i.collection AND r.scope = i.scope AND r.id = i.id;
  DROP TABLE record_index;
  ALTER TABLE record_index_v3 RENAME TO record_index;
  CREATE TABLE record_counts (
    collection TEXT NOT NULL,
    scope      TEXT NOT NULL,
    name       TEXT NOT NULL,
    key        TEXT NOT NULL,
    n          INTEGER NOT NULL,
    PRIMARY KEY (collection, scope, name, key)
  ) WITHOUT ROWID;
  INSERT INTO record_counts (collection, scope, name, key, n)
    SELECT collection, scope, '', '', count(*) FROM records GROUP BY collection, scope;
`

/** Whether the store keeps a counter per key of this index (declared `counted`). */
export const counted = (c: Collection<unknown>, name: string): boolean => c.indexes[name]?.counted === true

/**
 * Rebuilds every index entry and key counter of these collections from their records, with the
 * collections' current definitions: how an index added later reaches the records written before.
 */
export const reindex = (db: Database.Database, collections: ReadonlyArray<Collection<any>>): void => {
  const dropIndex = db.prepare("DELETE FROM record_index WHERE collection = ?")
  const dropCounts = db.prepare("DELETE FROM record_counts WHERE collection = ? AND name <> ''")
  const rows = db.prepare<[string], { seq: number; scope: string; id: string; data: string }>(
    "SELECT seq, scope, id, data FROM records WHERE collection = ?"
  )
  const add = db.prepare("INSERT OR IGNORE INTO record_index (collection, scope, name, key, seq, id) VALUES (?, ?, ?, ?, ?, ?)")
  const count = db.prepare(
    `INSERT INTO record_counts (collection, scope, name, key, n) VALUES (?, ?, ?, ?, 1)
     ON CONFLICT (collection, scope, name, key) DO UPDATE SET n = n + 1`
  )
  for (const c of collections) {
    dropIndex.run(c.name)
    dropCounts.run(c.name)
    for (const r of rows.all(c.name)) {
      const value = JSON.parse(r.data) as unknown
      for (const name of Object.keys(c.indexes))
        for (const key of new Set(indexKeys(c, name, value))) {
          add.run(c.name, r.scope, name, key, r.seq, r.id)
          if (counted(c, name)) count.run(c.name, r.scope, name, key)
        }
    }
  }
}
