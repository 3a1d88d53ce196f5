import { makeEngine } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { SqliteStore } from "@tessera/adapter-sqlite"
for (const store of [MemoryStore.layer, SqliteStore.layer({ filename: "/tmp/smoke/x.sqlite" })]) {
  const t0 = performance.now()
  const e = makeEngine({ store })
  const t1 = performance.now()
  const p = await e.platform({ clientId: "a", clientSecret: "b" })
  const api = e.as(p)
  const c = await api.customers.create({ customerType: "INDIVIDUAL", fullName: "Jane 001", email: "j@x.io" })
  console.log(t1 - t0, c)
  console.log(await api.customers.list({ limit: "1" }))
  console.log(await api.internalAccounts.list())
  try { await api.customers.create({ customerType: "BUSINESS", email: "nope", businessInfo: { legalName: "" } } as never) } catch (err) { console.log(JSON.stringify(err)) }
  try { await api.customers.create({ customerType: "X", email: "nope" } as never) } catch (err) { console.log(JSON.stringify(err)) }
  await e.dispose()
}
