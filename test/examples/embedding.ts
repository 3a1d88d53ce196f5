import { makeEngine } from "@tessera/core"
import { SqliteStore } from "@tessera/adapter-sqlite"

export const engine = makeEngine({ store: SqliteStore.layer({ filename: process.env.TESSERA_DB ?? "./dev.sqlite" }) })
const platform = await engine.platform({ clientId: "my-app", clientSecret: "s3cret" })
export const api = engine.as(platform)

export const customer = await api.customers.create({ customerType: "INDIVIDUAL", fullName: "Ada 001" })

// Failures reject with the tagged domain error: e._tag is the wire code, e.status the HTTP status.
export const refusal = await api.customers.create({ customerType: "INDIVIDUAL", email: "not-an-email" }).catch((e) => e)
