import type { Server } from "node:http"
import { createAdaptorServer } from "@hono/node-server"
import { Hono } from "hono"
import { cloneRawRequest } from "hono/request"
import { toFetchHandler } from "@tessera/adapter-http"
import { afterAll, describe, it } from "vitest"
import { app, engine } from "../examples/mount-hono.ts"
import { type Call, expectBodyErrors, expectConsumedEnvelope, expectCustomerRoundTrip, httpCaller, listen } from "./support.ts"

const closers: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const close of closers) await close()
})

const start = async (a: Hono): Promise<Call> => {
  const running = await listen(createAdaptorServer({ fetch: a.fetch }) as Server)
  closers.push(running.close)
  return httpCaller(running.origin, "/tessera")
}

describe("Hono on @hono/node-server (recipe)", () => {
  it("creates, patches and reads a customer under /tessera, and answers 413, 415 and malformed JSON", async () => {
    const call = await start(app)
    await expectCustomerRoundTrip(call)
    await expectBodyErrors(call)
  })

  it("a body a middleware already read from c.req.raw gets the envelope at once", async () => {
    const outer = new Hono()
    outer.use(async (c, next) => {
      if (c.req.method !== "GET") await c.req.json()
      await next()
    })
    outer.route("/", app)
    await expectConsumedEnvelope(await start(outer))
  })

  it("after such a middleware, cloneRawRequest(c.req) hands Tessera the body again (README)", async () => {
    const tessera = toFetchHandler(engine, { prefix: "/tessera" })
    const outer = new Hono()
    outer.use(async (c, next) => {
      if (c.req.method !== "GET") await c.req.json()
      await next()
    })
    outer.all("/tessera/*", async (c) => tessera(await cloneRawRequest(c.req)))
    await expectCustomerRoundTrip(await start(outer))
  })
})
