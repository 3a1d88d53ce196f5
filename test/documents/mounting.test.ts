import { createServer, type IncomingMessage } from "node:http"
import express from "express"
import express4 from "express4"
import { afterAll, describe, expect, it } from "vitest"
import { makeEngine } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { bodyParserErrors, nodeListener, toFetchHandler } from "@tessera/adapter-http"
import { app as withJsonParser } from "../examples/mount-express.ts"
import { app as noParser } from "../examples/mount-express-no-parser.ts"
import { listen, recipeAuth } from "../mounting/support.ts"
import { checkResponse } from "../support/openapi-checker.ts"
import { operationFor } from "../support/server.ts"
import { documentForm } from "../support/onboarding-uploads.ts"
import { samples } from "../support/sample-files.ts"

/**
 * A multipart upload through the mounting recipes: body parsers in front of Tessera leave a
 * multipart body alone (it reaches the handler whole), and one that parses multipart itself is
 * refused with a message saying where to mount.
 */

const V = "/2025-10-13"
const closers: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const close of closers) await close()
})

type FetchLike = (request: Request) => Promise<Response>

const call = async (fetchLike: FetchLike, base: string, method: string, path: string, body?: FormData | string) => {
  const headers: Record<string, string> = { authorization: recipeAuth }
  if (typeof body === "string") headers["content-type"] = "application/json"
  const res = await fetchLike(new Request(base + V + path, { method, headers, ...(body === undefined ? {} : { body }) }))
  const text = await res.text()
  const parsed = text === "" ? undefined : JSON.parse(text)
  expect(checkResponse(operationFor(method, V + path), res.status, parsed).problems, text.slice(0, 300)).toEqual([])
  return { status: res.status, body: parsed }
}

/** Creates a customer (JSON), uploads a JPEG for it (multipart), and reads the document back. */
const expectUploadRoundTrip = async (fetchLike: FetchLike, base: string) => {
  const customer = await call(fetchLike, base, "POST", "/customers", JSON.stringify({ customerType: "INDIVIDUAL", fullName: "Mounted Holder" }))
  expect(customer.status).toBe(201)
  const up = await call(fetchLike, base, "POST", "/documents", documentForm(customer.body.id, "PASSPORT", "jpeg", { side: "FRONT" }))
  expect([up.status, up.body.fileName, up.body.side]).toEqual([201, samples.jpeg.name, "FRONT"])
  const got = await call(fetchLike, base, "GET", `/documents/${up.body.id}`)
  expect(got.body).toEqual(up.body)
  return customer.body.id as string
}

const overHttp = async (handler: Parameters<typeof createServer>[1]) => {
  const running = await listen(createServer(handler))
  closers.push(running.close)
  return { fetchLike: (r: Request) => fetch(r), base: running.origin + "/tessera" }
}

describe("a multipart upload reaches Tessera whole", () => {
  it.each([
    ["Express 5 behind express.json() (recipe)", withJsonParser],
    ["Express 5 before any body parser (recipe)", noParser]
  ])("%s", async (_name, app) => {
    const { fetchLike, base } = await overHttp(app)
    await expectUploadRoundTrip(fetchLike, base)
  })

  it("Express 4 behind express.json() and express.urlencoded()", async () => {
    const engine = makeEngine({ store: MemoryStore.layer })
    await engine.platform({ clientId: "my-app", clientSecret: "s3cret" })
    const app = express4()
    app.use(express4.json())
    app.use(express4.urlencoded({ extended: false }))
    app.use("/tessera", nodeListener(engine), bodyParserErrors)
    const { fetchLike, base } = await overHttp(app)
    await expectUploadRoundTrip(fetchLike, base)
  })

  it("Express 5 behind express.raw() for multipart: the bytes it hands over are parsed as sent", async () => {
    const engine = makeEngine({ store: MemoryStore.layer })
    await engine.platform({ clientId: "my-app", clientSecret: "s3cret" })
    const app = express()
    app.use(express.raw({ type: "multipart/form-data", limit: "20mb" }))
    app.use(express.json())
    app.use("/tessera", nodeListener(engine), bodyParserErrors)
    const { fetchLike, base } = await overHttp(app)
    await expectUploadRoundTrip(fetchLike, base)
  })

  it("the fetch handler, called with real Requests", async () => {
    const engine = makeEngine({ store: MemoryStore.layer })
    await engine.platform({ clientId: "my-app", clientSecret: "s3cret" })
    await expectUploadRoundTrip(toFetchHandler(engine, { prefix: "/tessera" }), "http://mounted.test/tessera")
  })

  it("a multipart parser in front (its fields on req.body, its files elsewhere) is a 400 saying where to mount", async () => {
    const engine = makeEngine({ store: MemoryStore.layer })
    await engine.platform({ clientId: "my-app", clientSecret: "s3cret" })
    // What multer does: reads the stream, leaves the text fields on req.body and the file on req.file.
    const fakeMulter = (req: IncomingMessage & { body?: unknown }, _res: unknown, next: () => void) => {
      req.on("end", () => {
        req.body = { documentType: "PASSPORT" }
        next()
      })
      req.resume()
    }
    const app = express()
    app.use(fakeMulter)
    app.use("/tessera", nodeListener(engine))
    const { fetchLike, base } = await overHttp(app)
    const res = await call(fetchLike, base, "POST", "/documents", documentForm("Customer:00000000-0000-4000-8000-000000000000", "PASSPORT"))
    expect([res.status, res.body.code, res.body.details.reason]).toEqual([400, "INVALID_INPUT", "BODY_ALREADY_CONSUMED"])
    expect(res.body.message).toMatch(/mount Tessera before any multipart parser/)
  })
})
