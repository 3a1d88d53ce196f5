import express from "express"
import { makeEngine } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { nodeListener } from "@tessera/adapter-http"

export const engine = makeEngine({ store: MemoryStore.layer })
await engine.platform({ clientId: "my-app", clientSecret: "s3cret" })

export const app = express()
// Mounted before any body parser, Tessera reads, caps and checks its bodies itself.
app.use("/tessera", nodeListener(engine))
app.use(express.json())
