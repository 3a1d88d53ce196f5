export { makeSqliteStore, openDatabase, SqliteStore, type SqliteStoreOptions } from "./sqlite-store.ts"
export { migrations } from "./migrations/index.ts"
