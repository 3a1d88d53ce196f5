import Fastify, { type FastifyInstance } from "fastify"
import { afterAll, describe, expect, it } from "vitest"
import { nodeListener } from "@tessera/adapter-http"
import { app, engine } from "../examples/mount-fastify.ts"
import { type Call, expectBodyErrors, expectConsumedEnvelope, expectCustomerRoundTrip, httpCaller } from "./support.ts"

const apps: Array<FastifyInstance> = []
afterAll(async () => {
  for (const a of apps) await a.close()
})

const start = async (a: FastifyInstance): Promise<Call> => {
  apps.push(a)
  const origin = await a.listen({ port: 0, host: "127.0.0.1" })
  return httpCaller(origin, "/tessera")
}

/** Fastify with its own JSON parser left in place, calling Tessera from a route under /tessera. */
const withFastifyParsers = (handOver: boolean) => {
  const tessera = nodeListener(engine, { prefix: "/tessera" })
  const a = Fastify()
  a.all("/tessera/*", (request, reply) => {
    reply.hijack()
    tessera(handOver ? Object.assign(request.raw, { body: request.body }) : request.raw, reply.raw)
  })
  return a
}

describe("Fastify (recipe)", () => {
  it("creates, patches and reads a customer under /tessera, and Tessera answers 413, 415 and malformed JSON", async () => {
    const call = await start(app)
    await expectCustomerRoundTrip(call)
    await expectBodyErrors(call)
  })

  it("with Fastify's parsers in place, a body handed over as req.body is used", async () => {
    await expectCustomerRoundTrip(await start(withFastifyParsers(true)))
  })

  it("with Fastify's parsers in place and nothing handed over, the envelope comes at once", async () => {
    await expectConsumedEnvelope(await start(withFastifyParsers(false)))
  })
})
