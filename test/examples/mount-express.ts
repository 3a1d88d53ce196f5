import express from "express"
import { makeEngine } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { bodyParserErrors, nodeListener } from "@tessera/adapter-http"

export const engine = makeEngine({ store: MemoryStore.layer })
await engine.platform({ clientId: "my-app", clientSecret: "s3cret" })

export const app = express()
app.use(express.json())
// Tessera takes the body express.json() parsed from req.body; bodyParserErrors answers the
// parser's own refusals (malformed JSON, over its limit) with Tessera's error envelope.
app.use("/tessera", nodeListener(engine), bodyParserErrors)
