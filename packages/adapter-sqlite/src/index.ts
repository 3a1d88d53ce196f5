export { makeSqliteStore, migrate, openDatabase, SqliteStore, type SqliteStoreOptions } from "./sqlite-store.ts"
export { type Migration, migrations } from "./migrations/index.ts"
