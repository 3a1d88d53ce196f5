import type Database from "better-sqlite3"
import { AuthMethods, Customers, ExternalAccounts, InternalAccounts, Outbox, Platforms, Sessions, SignedRequests } from "@tessera/core"
import { COMPACT_TABLES, reindexV3, REBUILD_INDEX_TABLES } from "./reindex.ts"

/**
 * A versioned migration: SQL, or a function for what SQL cannot say (computing index keys with
 * the collections' own key functions). Shipped with the package and applied in order inside one
 * write transaction at open. A migration is never edited once released: add the next version.
 * An index added to a collection later is backfilled by a new version that reindexes it.
 */
export interface Migration {
  readonly version: number
  readonly sql?: string
  readonly run?: (db: Database.Database) => void
}

export const migrations: ReadonlyArray<Migration> = [
  {
    version: 1,
    sql: `
      CREATE TABLE records (
        seq        INTEGER PRIMARY KEY AUTOINCREMENT,
        collection TEXT NOT NULL,
        scope      TEXT NOT NULL,
        id         TEXT NOT NULL,
        data       TEXT NOT NULL,
        UNIQUE (collection, scope, id)
      );
      CREATE INDEX records_listing ON records (collection, scope, seq);
      CREATE TABLE record_index (
        collection TEXT NOT NULL,
        scope      TEXT NOT NULL,
        name       TEXT NOT NULL,
        key        TEXT NOT NULL,
        id         TEXT NOT NULL,
        PRIMARY KEY (collection, scope, name, key, id)
      ) WITHOUT ROWID;
      CREATE INDEX record_index_by_id ON record_index (collection, scope, id);
    `
  },
  {
    // Index rows are now maintained by exact key from the record's previous value; the index by
    // record id only cost a page write per index row.
    version: 2,
    sql: `DROP INDEX IF EXISTS record_index_by_id;`
  },
  {
    // Index entries carry the record's position, so a page under a key (or a range of an
    // ordered index) is a seek; counters per (collection, scope[, index, key]) make a page's
    // totalCount one row read. Then the indexes the list conditions, unique keys and the
    // webhook due query use are built from the records.
    version: 3,
    run: (db) => {
      db.exec(REBUILD_INDEX_TABLES)
      reindexV3(db, [Platforms, Customers, InternalAccounts, ExternalAccounts, AuthMethods, Sessions, SignedRequests, Outbox])
    }
  },
  {
    // Names become numbers (DECISIONS #470): each (collection, scope) and (collection, scope,
    // index) gets one in `spaces`, and records, index entries and counters carry it; index
    // entries drop the record id (their seq names the record). A creation's index rows are a
    // third of the size, so its inserts split fewer pages and the log gets fewer frames.
    version: 4,
    sql: COMPACT_TABLES
  }
]

/**
 * What the migrations above leave, for a new database: the same tables, indexes and statements'
 * text as applying versions 1 to 4 in order (a test compares `sqlite_master`), made in one step.
 * A new file's open ran four versions of table rebuilds, ~0.8 ms of every first start
 * (DECISIONS #505). A later version is added to `migrations` as before and applies on top of this
 * too; `BASELINE.version` stays 4.
 */
export const BASELINE: { readonly version: number; readonly sql: string } = {
  version: 4,
  sql: `
    CREATE TABLE spaces (
    space      INTEGER PRIMARY KEY,
    collection TEXT NOT NULL,
    scope      TEXT NOT NULL,
    name       TEXT NOT NULL,
    UNIQUE (collection, scope, name)
  );
    CREATE TABLE "records" (
    seq   INTEGER PRIMARY KEY AUTOINCREMENT,
    space INTEGER NOT NULL,
    id    TEXT NOT NULL,
    data  TEXT NOT NULL,
    UNIQUE (space, id)
  );
    CREATE TABLE "record_index" (
    ix  INTEGER NOT NULL,
    key TEXT NOT NULL,
    seq INTEGER NOT NULL,
    PRIMARY KEY (ix, key, seq)
  ) WITHOUT ROWID;
    CREATE TABLE "record_counts" (
    ix  INTEGER NOT NULL,
    key TEXT NOT NULL,
    n   INTEGER NOT NULL,
    PRIMARY KEY (ix, key)
  ) WITHOUT ROWID;
    CREATE INDEX records_listing ON records (space, seq);
    INSERT INTO sqlite_sequence (name, seq) VALUES ('records', 0);
  `
}
