import { Agent, request as httpRequest } from "node:http"
import { connect } from "node:net"
import { DEFAULT_MAX_BODY_BYTES } from "@tessera/core"
import { checkResponse, operationFor } from "../support/openapi-checker.ts"
import type { Pool } from "./pool.ts"
import type { Wire } from "./requests.ts"

/** What came back: the status (0 when the server closed without answering) and the body. */
export interface Answer {
  readonly status: number
  readonly contentType: string
  readonly text: string
}

export interface Failure {
  readonly problem: string
  readonly request: string
  readonly status: number
  readonly answer: string
}

// Raw requests that may end without an answer: the client hung up mid-body, or sent only the
// blank lines a server skips before a request line (so there was no request to answer).
// And a body past the limit: the server answers 413 (or a parser error) as soon as it knows, then
// closes; a client still writing the rest may see the reset before it reads that answer.
const mayCloseSilently = (w: Wire) =>
  w.labels.includes("raw:short-body") ||
  (w.raw !== undefined && w.raw.toString("latin1").trim() === "") ||
  (w.body?.length ?? w.raw?.length ?? 0) > DEFAULT_MAX_BODY_BYTES

/** Raw bytes on a fresh connection; the first response is parsed (Connection: close, so it ends). */
const sendRaw = (host: string, port: number, bytes: Buffer, timeoutMs: number): Promise<Answer> =>
  new Promise((resolve) => {
    const chunks: Array<Buffer> = []
    const socket = connect({ host, port }, () => socket.end(bytes))
    const done = () => {
      clearTimeout(timer)
      resolve(parseRaw(Buffer.concat(chunks)))
    }
    const timer = setTimeout(() => socket.destroy(), timeoutMs)
    socket.on("data", (c: Buffer) => chunks.push(c))
    socket.on("error", () => undefined)
    socket.on("close", done)
  })

const parseRaw = (bytes: Buffer): Answer => {
  const head = bytes.indexOf("\r\n\r\n")
  if (head < 0) return { status: 0, contentType: "", text: bytes.toString("latin1").slice(0, 200) }
  const lines = bytes.subarray(0, head).toString("latin1").split("\r\n")
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0]!)?.[1] ?? 0)
  const headers = new Map(lines.slice(1).map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]))
  const length = Number(headers.get("content-length") ?? NaN)
  const rest = bytes.subarray(head + 4)
  const body = Number.isFinite(length) ? rest.subarray(0, length) : rest
  return { status, contentType: headers.get("content-type") ?? "", text: body.toString("utf8") }
}

const sendHttp = (agent: Agent, host: string, port: number, w: Wire, timeoutMs: number): Promise<Answer> =>
  new Promise((resolve) => {
    const headers = { ...w.headers, ...(w.body === undefined ? {} : { "content-length": String(w.body.length) }) }
    const req = httpRequest({ host, port, agent, method: w.method, path: w.path, headers, timeout: timeoutMs }, (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (c: Buffer) => chunks.push(c))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers["content-type"] ?? ""), text: Buffer.concat(chunks).toString("utf8") }))
      res.on("error", () => resolve({ status: 0, contentType: "", text: "response aborted" }))
    })
    req.on("timeout", () => req.destroy(new Error("timeout")))
    req.on("error", (e) => resolve({ status: 0, contentType: "", text: `client error: ${e.message}` }))
    req.end(w.body)
  })

/**
 * Sends one request. What node:http will not send (a header with a control character, a path
 * with spaces) goes out as raw bytes instead, so the server still sees it.
 */
export const send = async (agent: Agent, host: string, port: number, w: Wire, timeoutMs: number): Promise<{ answer: Answer; wire: Wire }> => {
  if (w.raw !== undefined) return { answer: await sendRaw(host, port, w.raw, timeoutMs), wire: w }
  try {
    return { answer: await sendHttp(agent, host, port, w, timeoutMs), wire: w }
  } catch {
    const head = [`${w.method} ${w.path} HTTP/1.1`, "Host: fuzz", ...Object.entries(w.headers).map(([k, v]) => `${k}: ${v}`), `Content-Length: ${w.body?.length ?? 0}`, "Connection: close"]
    const raw = Buffer.concat([Buffer.from(head.join("\r\n") + "\r\n\r\n", "latin1"), w.body ?? Buffer.alloc(0)])
    const wire = { ...w, raw, labels: [...w.labels, "raw:fallback"] }
    return { answer: await sendRaw(host, port, raw, timeoutMs), wire }
  }
}

const describe = (w: Wire) =>
  w.raw !== undefined ? `${w.labels.join(",")} ${JSON.stringify(w.raw.subarray(0, 300).toString("latin1"))}` : `${w.method} ${w.path.slice(0, 200)} [${w.labels.join(",")}] ${w.body?.subarray(0, 200).toString() ?? ""}`

/**
 * What every answer must be: never a 5xx, never silence, an error envelope whose status is the
 * answer's on every 4xx, no body on HEAD, and (on a route of the reference) what the reference
 * OpenAPI allows for that operation and status.
 */
export const check = (w: Wire, a: Answer): ReadonlyArray<string> => {
  const problems: Array<string> = []
  if (a.status === 0) {
    if (!mayCloseSilently(w)) problems.push(`no answer (${a.text.slice(0, 100)})`)
    return problems
  }
  if (a.status >= 500) problems.push(`status ${a.status}`)
  if (w.method === "HEAD") {
    if (a.text !== "") problems.push("HEAD answered with a body")
    return problems
  }
  let body: unknown
  try {
    body = a.text === "" ? undefined : JSON.parse(a.text)
  } catch {
    problems.push("answer is not JSON")
    return problems
  }
  if (a.status >= 400) {
    const e = body as Record<string, unknown> | undefined
    const ok = e !== undefined && e !== null && typeof e === "object" && e["status"] === a.status && typeof e["code"] === "string" &&
      typeof e["message"] === "string" && e["details"] !== null && typeof e["details"] === "object"
    if (!ok) problems.push("error without the envelope")
    if (!a.contentType.startsWith("application/json")) problems.push(`error content-type ${a.contentType}`)
  }
  if (w.raw === undefined) problems.push(...checkResponse(operationFor(w.method, w.path), a.status, body).problems)
  return problems
}

export const failureOf = (w: Wire, a: Answer, problems: ReadonlyArray<string>): Failure => ({
  problem: problems.join("; "),
  request: describe(w),
  status: a.status,
  answer: a.text.slice(0, 300)
})

/** Feeds the pool from a successful answer: ids, OTP targets, state documents, signed-retry challenges. */
export const learn = (pool: Pool, w: Wire, a: Answer): void => {
  if (a.status < 200 || a.status >= 300 || w.raw !== undefined || a.text === "") return
  let body: unknown
  try {
    body = JSON.parse(a.text)
  } catch {
    return
  }
  pool.learn(w.operationId, body, a.text)
  const b = body as Record<string, unknown>
  if (a.status === 202 && typeof b["requestId"] === "string" && typeof b["payloadToSign"] === "string")
    pool.remember({ method: w.method, path: w.path, body: w.body, requestId: b["requestId"], payloadToSign: b["payloadToSign"] })
}
