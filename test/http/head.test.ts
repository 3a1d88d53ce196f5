import { connect } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeEngine } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { toFetchHandler } from "@tessera/adapter-http"
import { basic, CLIENT_ID, CLIENT_SECRET, individual, startTestServer, type TestServer } from "../support/server.ts"

const V = "/2025-10-13"

// What a HEAD must repeat of the GET: everything but the body, the date and the connection
// headers (fetch closes the connection after a HEAD, and asks the server to).
const comparable = (h: Headers) => {
  const out: Record<string, string> = {}
  h.forEach((v, k) => {
    if (k !== "date" && k !== "connection" && k !== "keep-alive") out[k] = v
  })
  return out
}

describe("HEAD answers like GET, without a body (node:http)", () => {
  let t: TestServer
  let customerId: string
  beforeAll(async () => {
    t = await startTestServer("memory")
    customerId = (await t.request("POST", `${V}/customers`, { body: individual() })).body.id
  })
  afterAll(() => t.close())

  const both = async (path: string, auth: string | undefined) => {
    const headers = auth === undefined ? {} : { authorization: auth }
    const get = await fetch(t.origin + path, { headers })
    const getBody = await get.text()
    const head = await fetch(t.origin + path, { method: "HEAD", headers })
    return { get, getBody, head, headBody: await head.text() }
  }

  for (const [name, path, auth] of [
    ["GET /customers/{id}", () => `${V}/customers/${customerId}`, basic()],
    ["GET /health", () => "/health", undefined],
    ["a customer that does not exist (404)", () => `${V}/customers/Customer:019a0000-0000-7000-8000-000000000000`, basic()],
    ["without credentials (401)", () => `${V}/customers/${customerId}`, undefined]
  ] as const)
    it(name, async () => {
      const { get, getBody, head, headBody } = await both(path(), auth)
      expect(head.status).toBe(get.status)
      expect(comparable(head.headers)).toEqual(comparable(get.headers))
      expect(Number(head.headers.get("content-length"))).toBe(Buffer.byteLength(getBody))
      expect(getBody).not.toBe("")
      expect(headBody).toBe("")
    })

  it("HEAD refused by the parser (headers past 16 KB) answers 431 without a body, so the connection is not misread", async () => {
    const raw = await new Promise<string>((resolve) => {
      const chunks: Array<Buffer> = []
      const socket = connect({ host: "127.0.0.1", port: t.server.port }, () =>
        socket.end(`HEAD ${V}/customers HTTP/1.1\r\nHost: x\r\nX-Big: ${"b".repeat(20_000)}\r\n\r\n`)
      )
      socket.on("data", (c: Buffer) => chunks.push(c))
      socket.on("error", () => undefined)
      socket.on("close", () => resolve(Buffer.concat(chunks).toString("latin1")))
    })
    expect(raw).toMatch(/^HTTP\/1\.1 431 /)
    expect(raw).toMatch(/content-length: [1-9]\d*\r\n/)
    expect(raw.endsWith("\r\n\r\n")).toBe(true)
  })

  it("HEAD on a route without GET is still a 405", async () => {
    const res = await fetch(`${t.origin}${V}/sandbox/clock/advance`, { method: "HEAD", headers: { authorization: basic() } })
    expect(res.status).toBe(405)
    expect(res.headers.get("allow")).toBe("POST")
  })

  it("a resource that answers GET lists HEAD among its allowed methods", async () => {
    const res = await fetch(`${t.origin}${V}/customers/${customerId}`, { method: "PUT", headers: { authorization: basic() } })
    expect(res.status).toBe(405)
    expect(res.headers.get("allow")?.split(", ")).toContain("HEAD")
  })
})

describe("HEAD through the fetch handler", () => {
  const engine = makeEngine({ store: MemoryStore.layer })
  beforeAll(() => engine.platform({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }))
  afterAll(() => engine.dispose())

  it("answers GET's status and headers with no body", async () => {
    const handler = toFetchHandler(engine)
    const created = await (
      await handler(
        new Request(`http://host${V}/customers`, {
          method: "POST",
          headers: { authorization: basic(), "content-type": "application/json" },
          body: JSON.stringify(individual())
        })
      )
    ).json()
    const url = `http://host${V}/customers/${created.id}`
    const get = await handler(new Request(url, { headers: { authorization: basic() } }))
    const getBody = await get.text()
    const head = await handler(new Request(url, { method: "HEAD", headers: { authorization: basic() } }))
    expect(head.status).toBe(200)
    expect(head.headers.get("content-type")).toBe(get.headers.get("content-type"))
    expect(Number(head.headers.get("content-length"))).toBe(Buffer.byteLength(getBody))
    expect(head.body).toBeNull()
  })
})
