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
