// app/tessera/[...path]/route.ts
import { makeEngine } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { toFetchHandler } from "@tessera/adapter-http"

const engine = makeEngine({ store: MemoryStore.layer })
await engine.platform({ clientId: "my-app", clientSecret: "s3cret" })

const handler = toFetchHandler(engine, { prefix: "/tessera" })

export const runtime = "nodejs"
export { handler as GET, handler as POST, handler as PUT, handler as PATCH, handler as DELETE }
