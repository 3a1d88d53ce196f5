// One sample of issue 15's own in-process figure, for `before-after.ts`: the engine of the checkout
// at argv[2] (its packages, as that checkout's tests import them), a fresh memory store, 200
// creations, then creations through `engine.runSync` for argv[3] seconds. Prints creations/s.
// Written against the engine API both sides share (`makeEngine`, `MemoryStore`, `createCustomer`),
// as the bench (test/bench/in-process.ts at 2d56a5b) took it.
import { createRequire } from "node:module"
import { join } from "node:path"
import { pathToFileURL } from "node:url"

const [checkout, secondsArg] = process.argv.slice(2)
if (checkout === undefined || secondsArg === undefined) throw new Error("usage: issue-creations.ts CHECKOUT SECONDS")
const from = createRequire(join(checkout, "test", "package.json"))
const load = (specifier: string) => import(pathToFileURL(from.resolve(specifier)).href)
const { makeEngine } = await load("@tessera/core")
const { createCustomer } = await load("@tessera/core/operations")
const { MemoryStore } = await load("@tessera/adapter-memory")

const body = (i: number) => ({ customerType: "INDIVIDUAL", fullName: `Person ${i}`, email: `p${i}@example.com` })
const engine = makeEngine({ store: MemoryStore.layer })
const platform = await engine.platform({ clientId: "b", clientSecret: "s" })
for (let i = 0; i < 200; i++) engine.runSync(createCustomer(platform, body(i)))
let n = 200
const start = performance.now()
const end = start + Number(secondsArg) * 1000
while (performance.now() < end) for (let k = 0; k < 100; k++) engine.runSync(createCustomer(platform, body(n++)))
process.stdout.write(`${Math.round((n - 200) / ((performance.now() - start) / 1000))}\n`)
await engine.dispose()
