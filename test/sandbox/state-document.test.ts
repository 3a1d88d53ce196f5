import { describe, expect, it } from "vitest"
import * as collections from "../../packages/core/src/domain/collections.ts"
import { makeEngine, SERVER_SCOPE, type StateDocument, stateCollections } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { content } from "./support.ts"

describe("the state document", () => {
  it("holds every collection of collections.ts but the server-scoped platforms, API tokens and agent credentials, in that order", () => {
    const all = Object.values(collections).map((c) => c.name)
    const serverScoped = [collections.Platforms.name, collections.ApiTokens.name, collections.AgentDeviceCodes.name, collections.AgentCredentials.name]
    expect(stateCollections.map((c) => c.collection.name)).toEqual(all.filter((n) => !serverScoped.includes(n)))
    expect(SERVER_SCOPE).toBe("_server")
  })
})

describe("engine.as(platform).sandbox", () => {
  it("imports a document over the HTTP body cap (the CLI's path for seed files), and exports a copy", async () => {
    const engine = makeEngine({ store: MemoryStore.layer })
    const p = await engine.platform({ clientId: "seed", clientSecret: "s" })
    const api = engine.as(p)
    type Doc = typeof StateDocument.Encoded & { collections: Record<string, Array<Record<string, unknown>>> }
    const doc = (await api.sandbox.exportState()) as unknown as Doc
    const template = (await api.customers.create({ customerType: "INDIVIDUAL", fullName: "Template" })) as Record<string, unknown>
    doc.collections["customers"] = Array.from({ length: 4000 }, (_, i) => {
      const hex = i.toString(16).padStart(12, "0")
      return { ...template, id: `Customer:00000000-0000-4000-8000-${hex}`, platformCustomerId: `seed-${i}`, umaAddress: `$seed${i}@sandbox.tessera.local` }
    })
    expect(JSON.stringify(doc).length).toBeGreaterThan(1024 * 1024)
    expect((await api.sandbox.importState(doc)).imported.customers).toBe(4000)
    expect((await api.customers.list({ limit: "1" })).totalCount).toBe(4000)

    // The exported document is the caller's to change: the store does not move with it.
    const out = (await api.sandbox.exportState()) as unknown as Doc
    out.collections["customers"]![0]!["fullName"] = "Changed"
    expect((await api.customers.get("Customer:00000000-0000-4000-8000-000000000000")).fullName).toBe("Template")
    // A document given as objects is copied in too.
    const mine = structuredClone(out)
    await api.sandbox.importState(mine)
    mine.collections["customers"]![1]!["fullName"] = "Changed"
    expect((await api.customers.get("Customer:00000000-0000-4000-8000-000000000001")).fullName).toBe("Template")
    await engine.dispose()
  })

  it("rejects with the tagged INVALID_INPUT error, also for values JSON cannot hold", async () => {
    const engine = makeEngine({ store: MemoryStore.layer })
    const api = engine.as(await engine.platform({ clientId: "x", clientSecret: "s" }))
    const before = content(await api.sandbox.exportState())
    await expect(api.sandbox.importState({ format: "tessera.state", version: 1, collections: { customers: [{ n: 1n }] } })).rejects.toMatchObject({
      _tag: "INVALID_INPUT",
      status: 400,
      details: { errors: [{ field: "document", message: "must be plain JSON" }] }
    })
    // A JavaScript caller can pass anything: the program still decodes.
    await expect(api.sandbox.importState(undefined as never)).rejects.toMatchObject({ _tag: "INVALID_INPUT" })
    expect(content(await api.sandbox.exportState())).toEqual(before)
    await engine.dispose()
  })
})
