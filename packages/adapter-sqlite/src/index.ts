export { groupCommitOf, makeSqliteStore, migrate, openDatabase, SqliteStore, type SqliteStoreOptions, type SqliteStoreTuning } from "./sqlite-store.ts"
export { GroupCommit, walFileSync, type WalSync } from "./group-commit.ts"
export { BASELINE, type Migration, migrations } from "./migrations/index.ts"
export { reindex } from "./migrations/reindex.ts"
