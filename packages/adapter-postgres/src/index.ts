export { makePostgresStore, openPool, PostgresStore, type PostgresStoreOptions } from "./postgres-store.ts"
export { migrate } from "./migrate.ts"
export { type Migration, migrations } from "./migrations/index.ts"
export { PG_TRANSACTION_ATTEMPTS } from "./transaction.ts"
