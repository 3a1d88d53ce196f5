import { createServer } from "node:http"
import { afterAll, describe, expect, it } from "vitest"
import { makeEngine } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { nodeListener } from "@tessera/adapter-http"
import { expectBodyErrors, expectCustomerRoundTrip, httpCaller, listen, recipeAuth } from "./support.ts"

const engine = makeEngine({ store: MemoryStore.layer })
await engine.platform({ clientId: "my-app", clientSecret: "s3cret" })
const running = await listen(createServer(nodeListener(engine, { prefix: "/tessera" })))
afterAll(running.close)

describe("nodeListener with a prefix, on node:http", () => {
  it("serves the API under the prefix, with its own body checks", async () => {
    const call = httpCaller(running.origin, "/tessera")
    await expectCustomerRoundTrip(call)
    await expectBodyErrors(call)
  })

  it("a path under another prefix is not routed", async () => {
    const res = await fetch(`${running.origin}/other/2025-10-13/customers`, {
      headers: { authorization: recipeAuth },
      signal: AbortSignal.timeout(5000)
    })
    expect([res.status, (await res.json()).code]).toEqual([404, "NOT_FOUND"])
  })
})
