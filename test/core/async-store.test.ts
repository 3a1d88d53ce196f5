import { describe, expect, it } from "vitest"
import { Effect, Layer } from "effect"
import {
  createEngine,
  Engine,
  makeEngine,
  Store,
  StoreError
} from "@tessera/core"
import { serialisedTransaction, WritePermit } from "@tessera/core/store-kit"
import { AsyncMemoryStore, MemoryStore } from "@tessera/adapter-memory"
import { type HttpResponse, makeHandler } from "@tessera/adapter-http"

const auth = `Basic ${Buffer.from("c1:s1").toString("base64")}`
const get = (handler: ReturnType<typeof makeHandler>, url: string) =>
  new Promise<HttpResponse>((resolve) =>
    handler({ method: "GET", url, header: (n) => (n === "authorization" ? auth : undefined), body: new Uint8Array() }, resolve)
  )

describe("an engine over an asynchronous store", () => {
  it("makeEngine refuses an asynchronous layer and names Engine.make; Engine.make builds it", async () => {
    expect(() => makeEngine({ store: AsyncMemoryStore.layer })).toThrow(/Engine\.make/)
    const engine = await createEngine({ store: AsyncMemoryStore.layer, seed: 1 })
    const platform = await engine.platform({ clientId: "c1", clientSecret: "s1" })
    const api = engine.as(platform)
    await api.customers.create({ customerType: "INDIVIDUAL", platformCustomerId: "a1", fullName: "Ann Lee" })
    const listed = await api.customers.list()
    expect([listed.data.length, listed.totalCount]).toEqual([1, 1])
    await engine.dispose()
  })

  it("a store error that reaches HTTP is the 503 SERVICE_UNAVAILABLE envelope, never a 500", async () => {
    const broken = Layer.effect(
      Store,
      Effect.map(Store, (s) => ({
        ...s,
        list: () => Effect.fail(new StoreError({ message: "connection lost", retryable: true }))
      }))
    ).pipe(Layer.provide(MemoryStore.layer))
    const engine = await Engine.make({ store: broken })
    await engine.platform({ clientId: "c1", clientSecret: "s1" })
    const res = await get(makeHandler(engine), "/2025-10-13/customers")
    expect(res.status).toBe(503)
    expect(JSON.parse(res.body)).toMatchObject({ status: 503, code: "SERVICE_UNAVAILABLE" })
    await engine.dispose()
  })
})

describe("transactions with asynchronous hooks", () => {
  const later = (f: () => void) => Effect.promise(() => new Promise<void>((r) => setImmediate(() => r(f()))))

  it("a commit that fails rolls back and answers its StoreError; the permit is free afterwards", async () => {
    const log: Array<string> = []
    let failCommit = true
    const tx = serialisedTransaction(new WritePermit(), {
      begin: () => later(() => log.push("begin")),
      commit: () =>
        failCommit
          ? Effect.zipRight(later(() => log.push("commit?")), Effect.fail(new StoreError({ message: "commit lost", retryable: false })))
          : later(() => log.push("commit")),
      rollback: () => later(() => log.push("rollback"))
    })
    const failed = await Effect.runPromise(Effect.flip(tx(Effect.sync(() => log.push("body")))))
    expect(failed).toMatchObject({ _tag: "StoreError", message: "commit lost" })
    expect(log).toEqual(["begin", "body", "commit?", "rollback"])
    failCommit = false
    log.length = 0
    await Effect.runPromise(tx(Effect.sync(() => log.push("body"))))
    expect(log).toEqual(["begin", "body", "commit"])
  })

  it("a begin that fails runs nothing, and a retryable one is tried again", async () => {
    let begins = 0
    const tx = serialisedTransaction(new WritePermit(), {
      begin: () =>
        later(() => void begins++).pipe(
          Effect.zipRight(Effect.suspend(() => (begins < 2 ? Effect.fail(new StoreError({ message: "busy", retryable: true })) : Effect.void)))
        ),
      commit: () => Effect.void,
      rollback: () => Effect.void
    })
    let bodies = 0
    expect(await Effect.runPromise(tx(Effect.sync(() => ++bodies)))).toBe(1)
    expect([begins, bodies]).toEqual([2, 1])
  })
})
