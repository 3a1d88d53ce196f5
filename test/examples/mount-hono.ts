import { Hono } from "hono"
import { makeEngine } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { toFetchHandler } from "@tessera/adapter-http"

export const engine = makeEngine({ store: MemoryStore.layer })
await engine.platform({ clientId: "my-app", clientSecret: "s3cret" })

const tessera = toFetchHandler(engine, { prefix: "/tessera" })

export const app = new Hono()
app.all("/tessera/*", (c) => tessera(c.req.raw))
