import { connect } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeEngine } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { type RunningServer, serve } from "@tessera/adapter-http"
import { basic, CLIENT_ID, CLIENT_SECRET } from "../support/server.ts"

interface RawExchange {
  /** Everything the server sent before it closed the connection. */
  readonly text: string
  readonly status: number | undefined
  readonly headers: Record<string, string>
  readonly body: string
}

/**
 * Writes `chunks` on a fresh TCP connection (one `undefined` means: stop writing, leave the
 * connection open) and resolves with what the server sent once it closes the connection.
 */
const exchange = (port: number, chunks: ReadonlyArray<string>): Promise<RawExchange> =>
  new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1")
    const received: Array<Buffer> = []
    socket.on("data", (d) => received.push(d))
    socket.on("error", reject)
    socket.on("close", () => {
      const text = Buffer.concat(received).toString("utf8")
      const [head = "", body = ""] = text.split("\r\n\r\n", 2)
      const [statusLine = "", ...lines] = head.split("\r\n")
      const headers: Record<string, string> = {}
      for (const l of lines) {
        const i = l.indexOf(":")
        if (i > 0) headers[l.slice(0, i).toLowerCase()] = l.slice(i + 1).trim()
      }
      const status = /^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1]
      resolve({ text, status: status === undefined ? undefined : Number(status), headers, body })
    })
    for (const c of chunks) socket.write(c)
  })

const engine = makeEngine({ store: MemoryStore.layer })
let server: RunningServer
let quick: RunningServer
beforeAll(async () => {
  await engine.platform({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET })
  server = await serve({ engine, port: 0 })
  // Short timeouts so the test sees them act; the defaults are in limits.ts.
  quick = await serve({ engine, port: 0, timeouts: { keepAliveMs: 200, headersMs: 300, requestMs: 400, checkIntervalMs: 50 } })
})
afterAll(async () => {
  await server.close()
  await quick.close()
  await engine.dispose()
})

const expectEnvelope = (r: RawExchange, status: number, code: string) => {
  expect(r.status, r.text).toBe(status)
  expect(r.headers["content-type"]).toMatch(/^application\/json/)
  expect(Number(r.headers["content-length"])).toBe(Buffer.byteLength(r.body))
  const env = JSON.parse(r.body)
  expect([env.status, env.code, typeof env.message, env.details]).toEqual([status, code, "string", expect.any(Object)])
}

describe("requests the HTTP parser rejects get the error envelope, then the connection closes", () => {
  it("an unknown method is a 400", async () => {
    const r = await exchange(server.port, ["FOO /health HTTP/1.1\r\nHost: x\r\n\r\n"])
    expectEnvelope(r, 400, "INVALID_INPUT")
  })

  it("a malformed request line is a 400", async () => {
    const r = await exchange(server.port, ["this is not http\r\n\r\n"])
    expectEnvelope(r, 400, "INVALID_INPUT")
  })

  it("headers over 16 KB are a 431", async () => {
    const r = await exchange(server.port, [`GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`])
    expectEnvelope(r, 431, "REQUEST_HEADER_FIELDS_TOO_LARGE")
  })
})

describe("serve's timeouts", () => {
  // The test timeout is far above the 200 ms configured, and far below the 5 s default.
  it("an idle keep-alive connection is closed after the keep-alive timeout", { timeout: 3000 }, async () => {
    const r = await exchange(quick.port, ["GET /health HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n"])
    // The request was answered, and the server (not the client) closed the connection after.
    expect(r.status).toBe(200)
    expect(JSON.parse(r.body).status).toBe("ok")
  })

  it("a body that stalls is answered 408 and the connection closed", { timeout: 3000 }, async () => {
    const r = await exchange(quick.port, [
      `POST /2025-10-13/customers HTTP/1.1\r\nHost: x\r\nAuthorization: ${basic()}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"cust`
    ])
    expectEnvelope(r, 408, "REQUEST_TIMEOUT")
  })

  it("headers that stall are answered 408 and the connection closed", { timeout: 3000 }, async () => {
    const r = await exchange(quick.port, ["GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: "])
    expectEnvelope(r, 408, "REQUEST_TIMEOUT")
  })
})
