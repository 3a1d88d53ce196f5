/**
 * Versioned migrations, shipped with the package and applied in order inside one write
 * transaction at open. A migration is never edited once released: add the next version instead.
 */
export const migrations: ReadonlyArray<{ readonly version: number; readonly sql: string }> = [
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
  }
]
