import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { MemoryStore } from "@tessera/adapter-memory"
import { SqliteStore } from "@tessera/adapter-sqlite"
import { storeContract } from "./store-contract.ts"

const dir = mkdtempSync(join(tmpdir(), "tessera-contract-"))
let n = 0

storeContract("MemoryStore", () => MemoryStore.layer)
storeContract("SqliteStore", () => SqliteStore.layer({ filename: join(dir, `c${n++}.sqlite`) }))
