import { createServer, type IncomingMessage } from "node:http"
import express from "express"
import express4 from "express4"
import { afterAll, describe, expect, it } from "vitest"
import { makeEngine } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { bodyParserErrors, nodeListener } from "@tessera/adapter-http"
import { app as withParser } from "../examples/mount-express.ts"
import { app as noParser } from "../examples/mount-express-no-parser.ts"
import { type Call, expectBodyErrors, expectConsumedEnvelope, expectCustomerRoundTrip, httpCaller, listen } from "./support.ts"

const closers: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const close of closers) await close()
})

const start = async (handler: Parameters<typeof createServer>[1]): Promise<Call> => {
  const running = await listen(createServer(handler))
  closers.push(running.close)
  return httpCaller(running.origin, "/tessera")
}

/** Middleware that reads the body and leaves nothing behind, as a logging or signing layer might. */
const drain = (req: IncomingMessage, _res: unknown, next: () => void) => {
  req.on("end", () => next())
  req.resume()
}

const wrapped = (inner: express.Express) => {
  const outer = express()
  outer.use(drain)
  outer.use(inner)
  return outer
}

describe.each([
  ["behind express.json() (recipe)", withParser],
  ["before any body parser (recipe)", noParser]
])("Express 5, %s", (_name, app) => {
  it("creates, patches and reads a customer under /tessera", async () => {
    await expectCustomerRoundTrip(await start(app))
  })

  it("answers 413, 415 and malformed JSON with the envelope", async () => {
    await expectBodyErrors(await start(app))
  })

  it("answers a body another middleware consumed with the envelope at once", async () => {
    await expectConsumedEnvelope(await start(wrapped(app)))
  })
})

it("Express 5 behind express.json() (recipe): a charset the parser refuses is Tessera's 415", async () => {
  const call = await start(withParser)
  const res = await call("POST", "/customers", { raw: '{"customerType":"INDIVIDUAL"}', contentType: "application/json; charset=latin1" })
  expect([res.status, res.body.code, res.body.details]).toEqual([415, "UNSUPPORTED_MEDIA_TYPE", { contentType: "application/json; charset=latin1" }])
})

describe("Express 5, other body parsers hand their body over", () => {
  const engine = makeEngine({ store: MemoryStore.layer })
  const appWith = (parser: express.RequestHandler) => {
    const app = express()
    app.use(parser)
    app.use("/tessera", nodeListener(engine), bodyParserErrors)
    return app
  }

  it.each([
    ["express.raw (a Buffer)", express.raw({ type: "application/json" })],
    ["express.text (a string)", express.text({ type: "application/json" })]
  ])("%s: the round trip, and Tessera's own checks on the bytes", async (_name, parser) => {
    await engine.platform({ clientId: "my-app", clientSecret: "s3cret" })
    const call = await start(appWith(parser))
    await expectCustomerRoundTrip(call)
    await expectBodyErrors(call)
  })

  it("a parsed body keeps the media-type and size rules of the raw path", async () => {
    // A parser told to take any type still hands over a body Tessera would refuse as raw bytes.
    const call = await start(appWith(express.json({ type: "*/*", limit: "5mb" })))
    const text = await call("POST", "/customers", { raw: '{"customerType":"INDIVIDUAL"}', contentType: "text/plain" })
    expect([text.status, text.body.code]).toEqual([415, "UNSUPPORTED_MEDIA_TYPE"])
    const big = await call("POST", "/customers", { json: { customerType: "INDIVIDUAL", fullName: "x".repeat(2 * 1024 * 1024) } })
    expect([big.status, big.body.details]).toEqual([413, { maxBytes: 1024 * 1024 }])
    // An empty body parses to {} but is still no body, as on the raw path.
    const empty = await call("POST", "/customers", { raw: "" })
    expect([empty.status, empty.body.details.errors]).toEqual([400, [{ field: "body", message: "must be a JSON object" }]])
  })
})

describe("Express 4 (body-parser 1 sets req.body = {} on bodies it skips)", () => {
  const engine = makeEngine({ store: MemoryStore.layer })
  const build = (withJson: boolean) => {
    const app = express4()
    if (withJson) app.use(express4.json())
    app.use("/tessera", nodeListener(engine), bodyParserErrors)
    return app
  }

  it.each([
    ["behind express.json()", true],
    ["before any body parser", false]
  ])("%s: round trip, body errors, and a consumed body", async (_name, withJson) => {
    await engine.platform({ clientId: "my-app", clientSecret: "s3cret" })
    const call = await start(build(withJson))
    await expectCustomerRoundTrip(call)
    // text/plain: the parser skipped it and left {} on req.body; the unread stream decides (415).
    await expectBodyErrors(call)
    // A JSON type express.json() does not take: it leaves {} on req.body and the stream unread.
    const vendor = await call("POST", "/customers", {
      json: { customerType: "INDIVIDUAL", fullName: "Vendor Type" },
      contentType: "application/vnd.api+json"
    })
    expect([vendor.status, vendor.body.fullName]).toEqual([201, "Vendor Type"])
    const drained = express4()
    drained.use(drain)
    drained.use("/tessera", nodeListener(engine))
    await expectConsumedEnvelope(await start(drained))
  })
})
