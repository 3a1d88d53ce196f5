import type { Server } from "node:http"
import type { AddressInfo } from "node:net"
import { expect } from "vitest"
import { checkResponse } from "../support/openapi-checker.ts"
import { operationFor } from "../support/server.ts"

const V = "/2025-10-13"

/** The credentials the recipes in test/examples provision. */
export const recipeAuth = `Basic ${Buffer.from("my-app:s3cret").toString("base64")}`

// A hang detector, not a timing: every answer here is immediate, and a hang is the bug under test.
const CLIENT_TIMEOUT_MS = 5000

export interface Answer {
  readonly status: number
  readonly body: any
}

export interface Send {
  readonly json?: unknown
  readonly raw?: string
  readonly contentType?: string
}

/** One request to `base` (origin plus mount path); the answer must be one the reference allows. */
export type Call = (method: string, path: string, send?: Send) => Promise<Answer>

export const callerFor =
  (fetchLike: (request: Request) => Promise<Response>, base: string): Call =>
  async (method, path, send = {}) => {
    const headers: Record<string, string> = { authorization: recipeAuth }
    const body = send.raw ?? (send.json === undefined ? undefined : JSON.stringify(send.json))
    if (body !== undefined) headers["content-type"] = send.contentType ?? "application/json"
    const request = new Request(base + V + path, {
      method,
      headers,
      signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
      ...(body === undefined ? {} : { body })
    })
    const res = await fetchLike(request)
    const text = await res.text()
    const parsed = text === "" ? undefined : JSON.parse(text)
    expect(checkResponse(operationFor(method, V + path), res.status, parsed).problems, text.slice(0, 300)).toEqual([])
    return { status: res.status, body: parsed }
  }

/** Over real HTTP: `origin` plus the path the app mounts Tessera under. */
export const httpCaller = (origin: string, mount: string): Call => callerFor((r) => fetch(r), origin + mount)

/** Starts a node:http server (an Express app's, or any) on an ephemeral loopback port. */
export const listen = (server: Server): Promise<{ readonly origin: string; readonly close: () => Promise<void> }> =>
  new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      resolve({
        origin: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done())
            server.closeAllConnections()
          })
      })
    })
  })

/** Create a customer, patch it, read it back: the three verbs a mount must pass through. */
export const expectCustomerRoundTrip = async (call: Call) => {
  const created = await call("POST", "/customers", {
    json: { customerType: "INDIVIDUAL", fullName: "Ada Lovelace", email: "ada@example.com" }
  })
  expect(created.status).toBe(201)
  const patched = await call("PATCH", `/customers/${created.body.id}`, { json: { customerType: "INDIVIDUAL", fullName: "Ada King" } })
  expect(patched.status).toBe(200)
  expect(patched.body.fullName).toBe("Ada King")
  const read = await call("GET", `/customers/${created.body.id}`)
  expect(read.status).toBe(200)
  expect(read.body).toEqual(patched.body)
}

const tooBig = JSON.stringify({ customerType: "INDIVIDUAL", fullName: "x".repeat(2 * 1024 * 1024) })

/** 413, 415 and malformed JSON answer Tessera's envelope, whoever read the body. */
export const expectBodyErrors = async (call: Call) => {
  const big = await call("POST", "/customers", { raw: tooBig })
  expect([big.status, big.body.code]).toEqual([413, "PAYLOAD_TOO_LARGE"])
  const text = await call("POST", "/customers", { raw: '{"customerType":"INDIVIDUAL"}', contentType: "text/plain" })
  expect([text.status, text.body.code]).toEqual([415, "UNSUPPORTED_MEDIA_TYPE"])
  const malformed = await call("POST", "/customers", { raw: '{"customerType":' })
  expect([malformed.status, malformed.body.code]).toEqual([400, "INVALID_INPUT"])
  expect(malformed.body.details.errors).toEqual([{ field: "body", message: "is not valid JSON" }])
}

/** A body someone else read and handed nothing over: the envelope, not a wait. */
export const expectConsumedEnvelope = async (call: Call) => {
  const res = await call("POST", "/customers", { json: { customerType: "INDIVIDUAL", fullName: "Ada" } })
  expect([res.status, res.body.code, res.body.details.reason]).toEqual([400, "INVALID_INPUT", "BODY_ALREADY_CONSUMED"])
  expect(res.body.message).toMatch(/before any body parser/)
  // Reads need no body, so they still work.
  const list = await call("GET", "/customers")
  expect(list.status).toBe(200)
}
