import type Database from "better-sqlite3"
import { type Collection, indexKeys } from "@tessera/core"
import { twinsOf } from "@tessera/core/store-kit"

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
 * Version 3's rebuild of every index entry and key counter of these collections from their
 * records, on version 3's tables (migration 3 runs it; a released migration never changes, so
 * this stays as it was when version 4 replaced the tables).
 */
export const reindexV3 = (db: Database.Database, collections: ReadonlyArray<Collection<any>>): void => {
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

/** Version 4's tables (DECISIONS #470): names become numbers, index rows drop the record id. */
export const COMPACT_TABLES = `
  CREATE TABLE spaces (
    space      INTEGER PRIMARY KEY,
    collection TEXT NOT NULL,
    scope      TEXT NOT NULL,
    name       TEXT NOT NULL,
    UNIQUE (collection, scope, name)
  );
  INSERT INTO spaces (collection, scope, name)
    SELECT collection, scope, '' FROM records
    UNION SELECT collection, scope, name FROM record_index
    UNION SELECT collection, scope, name FROM record_counts
    ORDER BY 1, 2, 3;
  CREATE TABLE records_v4 (
    seq   INTEGER PRIMARY KEY AUTOINCREMENT,
    space INTEGER NOT NULL,
    id    TEXT NOT NULL,
    data  TEXT NOT NULL,
    UNIQUE (space, id)
  );
  INSERT INTO records_v4 (seq, space, id, data)
    SELECT r.seq, s.space, r.id, r.data FROM records r
    JOIN spaces s ON s.collection = r.collection AND s.scope = r.scope AND s.name = '' ORDER BY r.seq;
  -- A seq is never given twice: the new table continues from the old one's high-water mark,
  -- which is above the last record's when the newest records were removed.
  INSERT INTO sqlite_sequence (name, seq)
    SELECT 'records_v4', seq FROM sqlite_sequence WHERE name = 'records'
    AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'records_v4');
  UPDATE sqlite_sequence SET seq = (SELECT max(seq) FROM sqlite_sequence WHERE name IN ('records', 'records_v4'))
    WHERE name = 'records_v4';
  CREATE TABLE record_index_v4 (
    ix  INTEGER NOT NULL,
    key TEXT NOT NULL,
    seq INTEGER NOT NULL,
    PRIMARY KEY (ix, key, seq)
  ) WITHOUT ROWID;
  -- The customers' two unique indexes are declared within their plain twins, which answer them
  -- (#473): their rows are not kept.
  INSERT INTO record_index_v4 (ix, key, seq)
    SELECT s.space, i.key, i.seq FROM record_index i
    JOIN spaces s ON s.collection = i.collection AND s.scope = i.scope AND s.name = i.name
    WHERE NOT (i.collection = 'customers' AND i.name IN ('activePlatformCustomerId', 'umaAddress'));
  CREATE TABLE record_counts_v4 (
    ix  INTEGER NOT NULL,
    key TEXT NOT NULL,
    n   INTEGER NOT NULL,
    PRIMARY KEY (ix, key)
  ) WITHOUT ROWID;
  INSERT INTO record_counts_v4 (ix, key, n)
    SELECT s.space, c.key, c.n FROM record_counts c
    JOIN spaces s ON s.collection = c.collection AND s.scope = c.scope AND s.name = c.name
    WHERE NOT (c.collection = 'customers' AND c.name IN ('activePlatformCustomerId', 'umaAddress'));
  DROP TABLE record_index;
  DROP TABLE record_counts;
  DROP TABLE records;
  ALTER TABLE records_v4 RENAME TO records;
  ALTER TABLE record_index_v4 RENAME TO record_index;
  ALTER TABLE record_counts_v4 RENAME TO record_counts;
  CREATE INDEX records_listing ON records (space, seq);
`

/**
 * Rebuilds every index entry and key counter of these collections from their records, with the
 * collections' current definitions, on the current (version 4) tables: how an index added later
 * reaches the records written before. A later migration that adds an index runs this. Twin
 * indexes (declared `within` a plain one) keep no rows (#473).
 */
export const reindex = (db: Database.Database, collections: ReadonlyArray<Collection<any>>): void => {
  const recordSpaces = db.prepare<[string], { space: number; scope: string }>("SELECT space, scope FROM spaces WHERE collection = ? AND name = ''")
  const indexSpaces = "SELECT space FROM spaces WHERE collection = ? AND name <> ''"
  const dropIndex = db.prepare(`DELETE FROM record_index WHERE ix IN (${indexSpaces})`)
  const dropCounts = db.prepare(`DELETE FROM record_counts WHERE ix IN (${indexSpaces})`)
  const rows = db.prepare<[number], { seq: number; data: string }>("SELECT seq, data FROM records WHERE space = ?")
  const ensure = db.prepare("INSERT OR IGNORE INTO spaces (collection, scope, name) VALUES (?, ?, ?)")
  const spaceOf = db.prepare<[string, string, string], number>("SELECT space FROM spaces WHERE collection = ? AND scope = ? AND name = ?").pluck()
  const add = db.prepare("INSERT OR IGNORE INTO record_index (ix, key, seq) VALUES (?, ?, ?)")
  const count = db.prepare("INSERT INTO record_counts (ix, key, n) VALUES (?, ?, 1) ON CONFLICT (ix, key) DO UPDATE SET n = n + 1")
  for (const c of collections) {
    dropIndex.run(c.name)
    dropCounts.run(c.name)
    for (const { space, scope } of recordSpaces.all(c.name)) {
      const ix = new Map<string, number>()
      const ixOf = (name: string) => {
        let n = ix.get(name)
        if (n === undefined) {
          ensure.run(c.name, scope, name)
          ix.set(name, (n = spaceOf.get(c.name, scope, name)!))
        }
        return n
      }
      for (const r of rows.all(space)) {
        const value = JSON.parse(r.data) as unknown
        for (const name of Object.keys(c.indexes))
          for (const key of twinsOf(c).has(name) ? [] : new Set(indexKeys(c, name, value))) {
            add.run(ixOf(name), key, r.seq)
            if (counted(c, name)) count.run(ixOf(name), key)
          }
      }
    }
  }
}
