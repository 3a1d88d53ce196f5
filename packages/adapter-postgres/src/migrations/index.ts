import type pg from "pg"

/**
 * A versioned migration, shipped with the package and applied in order at start, each in its
 * own transaction with its version row. A migration is never edited once released: add the next
 * version. `run` is for what SQL cannot say (computing index keys with the collections' own key
 * functions, as SQLite's reindex does).
 */
export interface Migration {
  readonly version: number
  readonly sql?: string
  readonly run?: (client: pg.PoolClient) => Promise<void>
}

/**
 * Keys and ids are compared byte-wise (COLLATE "C") whatever the database's locale: ordered
 * indexes rely on keys sorting as JavaScript compares strings, as they do in the other stores.
 * Data is text, not jsonb, so a record comes back exactly as it was written.
 */
export const migrations: ReadonlyArray<Migration> = [
  {
    version: 1,
    sql: `
      CREATE TABLE records (
        seq        bigserial PRIMARY KEY,
        collection text COLLATE "C" NOT NULL,
        scope      text COLLATE "C" NOT NULL,
        id         text COLLATE "C" NOT NULL,
        data       text NOT NULL,
        UNIQUE (collection, scope, id)
      );
      CREATE INDEX records_listing ON records (collection, scope, seq);
      CREATE TABLE record_index (
        collection text COLLATE "C" NOT NULL,
        scope      text COLLATE "C" NOT NULL,
        name       text COLLATE "C" NOT NULL,
        key        text COLLATE "C" NOT NULL,
        seq        bigint NOT NULL,
        id         text COLLATE "C" NOT NULL,
        uniq       boolean NOT NULL DEFAULT false,
        PRIMARY KEY (collection, scope, name, key, seq)
      );
      -- The store checks unique keys before writing; this index is the backstop when two
      -- instances insert the same key at the same moment.
      CREATE UNIQUE INDEX record_index_unique ON record_index (collection, scope, name, key) WHERE uniq;
      CREATE TABLE record_counts (
        collection text COLLATE "C" NOT NULL,
        scope      text COLLATE "C" NOT NULL,
        name       text COLLATE "C" NOT NULL,
        key        text COLLATE "C" NOT NULL,
        n          bigint NOT NULL,
        PRIMARY KEY (collection, scope, name, key)
      );
    `
  }
]
