import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { AsyncMemoryStore, MemoryStore } from "@tessera/adapter-memory"
import { SqliteStore } from "@tessera/adapter-sqlite"
import { freshPostgresLayer } from "../support/postgres.ts"
import { storeContract } from "./store-contract.ts"

const dir = mkdtempSync(join(tmpdir(), "tessera-contract-"))
let n = 0

storeContract("MemoryStore", () => MemoryStore.layer)
storeContract("SqliteStore", () => SqliteStore.layer({ filename: join(dir, `c${n++}.sqlite`) }))
// Every call and hook crosses a real asynchronous boundary: the contract holds without a synchronous driver.
storeContract("AsyncMemoryStore", () => AsyncMemoryStore.layer)
// A real PostgreSQL server (test/support/postgres-setup.ts), each store in a schema of its own.
storeContract("PostgresStore", () => freshPostgresLayer("contract"))
