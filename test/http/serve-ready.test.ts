import { describe, expect, it } from "vitest"
import { makeEngine } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { serve } from "@tessera/adapter-http"

const auth = `Basic ${Buffer.from("ready:ready-secret").toString("base64")}`

describe("serve({ ready })", () => {
  it("binds the port at once but holds requests until ready settles, then answers them with what ready prepared", async () => {
    const engine = makeEngine({ store: MemoryStore.layer })
    const platform = await engine.platform({ clientId: "ready", clientSecret: "ready-secret" })
    let open!: () => void
    const ready = new Promise<void>((resolve) => (open = resolve))
    const server = await serve({ engine, port: 0, ready })
    try {
      let answered = false
      const pending = fetch(`${server.url}/customers`, { headers: { authorization: auth } }).then((r) => {
        answered = true
        return r.json() as Promise<{ data: Array<{ fullName: string }> }>
      })
      await new Promise((r) => setTimeout(r, 100))
      expect(answered).toBe(false)
      // What the caller prepares while requests wait (the CLI imports a seed here) is what they see.
      await engine.as(platform).customers.create({ customerType: "INDIVIDUAL", fullName: "Prepared" })
      open()
      expect((await pending).data.map((c) => c.fullName)).toEqual(["Prepared"])
    } finally {
      await server.close()
      await engine.dispose()
    }
  })
})
