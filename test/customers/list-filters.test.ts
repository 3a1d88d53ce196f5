import { describe, expect, it } from "vitest"
import { Effect } from "effect"
import { Engine, TimeControl } from "@tessera/core"
import { business, individual } from "../support/server.ts"
import { freshPostgresLayer } from "../support/postgres.ts"
import { everyStore } from "../support/stores.ts"

const T0 = Date.UTC(2026, 2, 1, 12, 0, 0)
/** An instant written with another offset, so a filter must compare instants, not strings. */
const at = (ms: number, offsetHours: number) => {
  const local = new Date(ms + offsetHours * 3_600_000).toISOString().slice(0, 19)
  const sign = offsetHours < 0 ? "-" : "+"
  return `${local}${sign}${String(Math.abs(offsetHours)).padStart(2, "0")}:00`
}

const stores = [...everyStore("filters"), ["postgres", () => freshPostgresLayer("filters")] as const]

describe.each(stores)("customer list filters on indexes (%s store)", (_name, layer) => {
  it("time bounds compare instants; deleted ones are hidden by default; every page counts every match", async () => {
    const engine = await Engine.make({ store: layer(), clock: "virtual", clockStartMs: T0, seed: 7 })
    const advance = (seconds: number) => engine.run(Effect.flatMap(TimeControl, (t) => t.advance(seconds)))
    const platform = await engine.platform({ clientId: "c", clientSecret: "s" })
    const api = engine.as(platform)
    const ids = (r: { readonly data: ReadonlyArray<{ readonly id: string }> }) => r.data.map((c) => c.id)
    const a = await api.customers.create(individual({ platformCustomerId: "a", umaAddress: "$Ann@sandbox.tessera.local", email: "a@x.test" }))
    await advance(60)
    const b = await api.customers.create(business({ platformCustomerId: "b", email: "b@x.test" }))
    await advance(60)
    const c = await api.customers.create(individual({ platformCustomerId: "c", email: "c@x.test" }))
    await advance(60)
    await api.customers.update(a.id, { customerType: "INDIVIDUAL", fullName: "Ann Updated" })

    const after30 = await api.customers.list({ createdAfter: at(T0 + 30_000, 2) })
    expect([ids(after30), after30.totalCount]).toEqual([[b.id, c.id], 2])
    expect(ids(await api.customers.list({ createdBefore: at(T0 + 90_000, -5) }))).toEqual([a.id, b.id])
    expect(ids(await api.customers.list({ createdAfter: at(T0, 0), createdBefore: at(T0 + 120_000, 9) }))).toEqual([b.id])
    expect(ids(await api.customers.list({ updatedAfter: at(T0 + 150_000, -3) }))).toEqual([a.id])
    expect(ids(await api.customers.list({ customerType: "INDIVIDUAL" }))).toEqual([a.id, c.id])
    expect(ids(await api.customers.list({ umaAddress: "$ANN@sandbox.tessera.local" }))).toEqual([a.id])

    await api.customers.delete(a.id)
    const visible = await api.customers.list()
    expect([ids(visible), visible.totalCount]).toEqual([[b.id, c.id], 2])
    const all = await api.customers.list({ isIncludingDeleted: "true", limit: "2" })
    expect([ids(all), all.totalCount, all.hasMore]).toEqual([[a.id, b.id], 3, true])
    const rest = await api.customers.list({ isIncludingDeleted: "true", limit: "2", cursor: all.nextCursor! })
    expect([ids(rest), rest.totalCount, rest.hasMore]).toEqual([[c.id], 3, false])
    expect(ids(await api.customers.list({ umaAddress: "$ann@sandbox.tessera.local" }))).toEqual([])
    expect(ids(await api.customers.list({ umaAddress: "$ann@sandbox.tessera.local", isIncludingDeleted: "true" }))).toEqual([a.id])
    // The deleted customer's ids are free again.
    const again = await api.customers.create(individual({ platformCustomerId: "a", umaAddress: "$ann@sandbox.tessera.local", email: "a2@x.test" }))
    expect(ids(await api.customers.list({ platformCustomerId: "a", isIncludingDeleted: "true" }))).toEqual([a.id, again.id])
    await engine.dispose()
  })
})
