import { readdirSync } from "node:fs"
import { resolve } from "node:path"
import { describe, expect, it } from "vitest"
import { camelCase, endpointGroups, endpointPrograms, endpoints, makeEngine } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { routes } from "@tessera/adapter-http"
import { repoRoot } from "../support/paths.ts"

const methodsOf = (api: object) =>
  Object.entries(api).flatMap(([group, methods]) =>
    Object.entries(methods as Record<string, unknown>).map(([name, f]) => ({ key: `${group}.${name}`, callable: typeof f === "function" }))
  )

describe("one endpoint table", () => {
  it("gives every HTTP route its embedding method, and the embedding API nothing else", async () => {
    const engine = makeEngine({ store: MemoryStore.layer })
    const platform = await engine.platform({ clientId: "table", clientSecret: "s" })
    const api = engine.as(platform)
    // The agents' own routes are methods of `engine.asAgent(token)`, the others of `engine.as(platform)` (#386).
    const methods = [...methodsOf(api), ...methodsOf({ agentsMe: engine.asAgent("gat_unknown") })]
    expect(methods.every((m) => m.callable)).toBe(true)
    const fromRoutes = routes.map((r) => `${camelCase(r.endpoint.group)}.${r.endpoint.name}`)
    expect(new Set(fromRoutes).size).toBe(routes.length)
    expect(methods.map((m) => m.key).sort()).toEqual([...fromRoutes].sort())
    expect(methodsOf(endpointPrograms(platform)).map((m) => m.key).sort()).toEqual(fromRoutes.filter((k) => !k.startsWith("agentsMe.")).sort())
    await engine.dispose()
  })

  it("declares each route once: method and path, operationId, and the route carries the endpoint's facts", () => {
    expect(new Set(endpoints.map((e) => `${e.method} ${e.path}`)).size).toBe(endpoints.length)
    expect(new Set(endpoints.map((e) => e.operationId)).size).toBe(endpoints.length)
    expect(routes.map((r) => [r.method, r.path, r.operationId, r.status, r.summary])).toEqual(
      endpoints.map((e) => [e.method, e.path, e.operationId, e.status, e.summary])
    )
  })

  it("groups endpoints by the resource groups of operations/", () => {
    // Folders the groups' operations share, with no endpoints of their own: helpers, the ledger.
    const libraries = new Set(["common", "ledger"])
    const folders = readdirSync(resolve(repoRoot, "packages/core/src/operations")).filter((d) => !libraries.has(d) && !d.endsWith(".ts"))
    expect([...endpointGroups].sort()).toEqual(folders.sort())
    expect(new Set(endpoints.map((e) => e.group))).toEqual(new Set(endpointGroups))
  })
})
