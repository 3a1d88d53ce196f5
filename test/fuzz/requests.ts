import { BASE_PATH, routes } from "@tessera/adapter-http"
import { encodeMultipart, multipartContentType } from "../support/multipart.ts"
import { stamp } from "@tessera/core/testing"
import { type Draft, methods, mutate } from "./hostile.ts"
import { type Ctx, validTemplates } from "./valid.ts"

/** A request as sent: through node:http when it accepts it, else written on a raw socket. */
export interface Wire {
  readonly method: string
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: Buffer | undefined
  /** Bytes written as-is on a fresh connection (what node:http would refuse to send). */
  readonly raw?: Buffer
  /** The route the request was made from, if any. */
  readonly operationId?: string
  readonly labels: ReadonlyArray<string>
}

export interface Mix {
  /** Shares of valid requests, mutated valid requests, random paths/methods, raw socket requests. */
  readonly valid: number
  readonly mutated: number
  readonly random: number
  readonly raw: number
}

export const defaultMix: Mix = { valid: 0.4, mutated: 0.37, random: 0.13, raw: 0.1 }

// Routes that wipe or replace the sandbox are drawn rarely, so state builds up between them.
const rare = new Set(["tessera.resetSandbox", "tessera.importSandboxState"])
const common = routes.filter((r) => !rare.has(r.operationId))
const wiping = routes.filter((r) => rare.has(r.operationId))

const fill = (path: string, params: Readonly<Record<string, string>>) =>
  path.split("/").slice(1).map((s) => (s.startsWith("{") ? encodeURIComponent(params[s.slice(1, -1)] ?? "missing") : s))

const draftOf = (x: Ctx, auth: string): { draft: Draft; json: unknown; operationId: string } => {
  const route = x.r.chance(0.002) ? x.r.pick(wiping) : x.r.pick(common)
  const template = validTemplates[route.operationId]!(x)
  const headers: Record<string, string> = { authorization: auth, ...(template.headers ?? {}) }
  const multipart = template.multipart === undefined ? undefined : encodeMultipart(template.multipart)
  const body = multipart ?? (template.body === undefined ? undefined : Buffer.from(JSON.stringify(template.body)))
  if (body !== undefined) headers["content-type"] = multipart !== undefined ? multipartContentType() : "application/json"
  const draft: Draft = { method: route.method, segments: fill(route.path, template.params), base: BASE_PATH, query: template.query ?? "", headers, body, labels: [] }
  return { draft, json: template.body, operationId: route.operationId }
}

const wireOf = (d: Draft, operationId?: string): Wire => ({
  method: d.method,
  path: `${d.base}/${d.segments.join("/")}${d.query === "" ? "" : `?${d.query}`}`,
  headers: d.headers,
  body: d.body,
  labels: d.labels,
  ...(operationId === undefined ? {} : { operationId })
})

/** A second leg for a remembered challenge: stamped by one of the fuzzer's keys (rarely the right one) or with garbage. */
const secondLeg = (x: Ctx, auth: string): Wire | undefined => {
  const ch = x.pool.challenges.at(-1 - x.r.int(Math.max(1, x.pool.challenges.length)))
  if (ch === undefined) return undefined
  const signature = x.r.chance(0.8) ? stamp(x.r.pick(x.keys), ch.payloadToSign) : x.r.pick(["", "e30", stamp(x.r.pick(x.keys), "other payload")])
  const headers: Record<string, string> = { authorization: auth, "service-wallet-signature": signature, "request-id": ch.requestId }
  if (ch.body !== undefined) headers["content-type"] = "application/json"
  return { method: ch.method, path: ch.path, headers, body: ch.body, labels: ["second-leg"] }
}

const randomPath = (x: Ctx, auth: string): Wire => {
  const segments = Array.from({ length: x.r.int(6) }, () =>
    x.r.pick([() => x.r.pick(routes).path.split("/")[1]!, () => encodeURIComponent(x.c.draw("text")), () => x.r.pick(["sandbox", "customers", "..", "", "%2F", "2025-10-13"])])()
  )
  const base = x.r.pick([BASE_PATH, BASE_PATH, "", "/2024-01-01", "/2025-10-13/2025-10-13", "//2025-10-13"])
  return { method: x.r.pick(methods), path: `${base}/${segments.join("/")}`, headers: { authorization: auth }, body: undefined, labels: ["random-path"] }
}

/** Requests node:http's parser must refuse (or that a client cannot make through node:http). */
const rawRequests: ReadonlyArray<readonly [string, (x: Ctx, auth: string) => string | Buffer]> = [
  ["unknown-method", (_x, a) => `FOO ${BASE_PATH}/customers HTTP/1.1\r\nHost: x\r\nAuthorization: ${a}\r\nConnection: close\r\n\r\n`],
  ["huge-headers", (_x, a) => `GET ${BASE_PATH}/customers HTTP/1.1\r\nHost: x\r\nAuthorization: ${a}\r\nX-Big: ${"b".repeat(20_000)}\r\nConnection: close\r\n\r\n`],
  ["garbage", (x) => Buffer.concat([Buffer.from(x.c.draw("text"), "latin1"), Buffer.from("\r\n\r\n")])],
  ["no-colon", (_x, a) => `GET ${BASE_PATH}/customers HTTP/1.1\r\nHost: x\r\nAuthorization: ${a}\r\nBrokenHeader\r\nConnection: close\r\n\r\n`],
  ["bad-version", (x, a) => `GET ${BASE_PATH}/customers HTTP/${x.r.pick(["2.0", "0.9", "1.x", "9"])}\r\nHost: x\r\nAuthorization: ${a}\r\nConnection: close\r\n\r\n`],
  ["bad-chunk", (_x, a) => `POST ${BASE_PATH}/customers HTTP/1.1\r\nHost: x\r\nAuthorization: ${a}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`],
  ["cl-and-te", (_x, a) => `POST ${BASE_PATH}/customers HTTP/1.1\r\nHost: x\r\nAuthorization: ${a}\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n2\r\n{}\r\n0\r\n\r\n`],
  ["two-lengths", (_x, a) => `POST ${BASE_PATH}/customers HTTP/1.1\r\nHost: x\r\nAuthorization: ${a}\r\nContent-Length: 2\r\nContent-Length: 3\r\nConnection: close\r\n\r\n{}`],
  ["absolute-uri", (_x, a) => `GET http://example.com${BASE_PATH}/customers HTTP/1.1\r\nHost: x\r\nAuthorization: ${a}\r\nConnection: close\r\n\r\n`],
  ["raw-unicode-path", (x, a) => Buffer.from(`GET ${BASE_PATH}/customers/${x.c.draw("text").replace(/[\r\n]/g, "")} HTTP/1.1\r\nHost: x\r\nAuthorization: ${a}\r\nConnection: close\r\n\r\n`, "utf8")],
  ["pipelined", (_x, a) => `GET ${BASE_PATH}/sandbox/clock HTTP/1.1\r\nHost: x\r\nAuthorization: ${a}\r\n\r\nGET ${BASE_PATH}/customers HTTP/1.1\r\nHost: x\r\nAuthorization: ${a}\r\nConnection: close\r\n\r\n`],
  ["short-body", (_x, a) => `POST ${BASE_PATH}/customers HTTP/1.1\r\nHost: x\r\nAuthorization: ${a}\r\nContent-Type: application/json\r\nContent-Length: 100\r\nConnection: close\r\n\r\n{"a":`]
]

/** The next request of a run: all choices come from the context's seeded generator. */
export const nextRequest = (x: Ctx, auth: string, mix: Mix = defaultMix): Wire => {
  const roll = x.r.next()
  if (roll < mix.valid) {
    const { draft, operationId } = draftOf(x, auth)
    return (x.r.chance(0.15) ? secondLeg(x, auth) : undefined) ?? wireOf(draft, operationId)
  }
  if (roll < mix.valid + mix.mutated) {
    const { draft, json, operationId } = draftOf(x, auth)
    mutate(x, draft, json)
    return wireOf(draft, operationId)
  }
  if (roll < mix.valid + mix.mutated + mix.random) return randomPath(x, auth)
  const [name, make] = x.r.pick(rawRequests)
  const raw = make(x, auth)
  return { method: "RAW", path: "", headers: {}, body: undefined, raw: typeof raw === "string" ? Buffer.from(raw) : raw, labels: [`raw:${name}`] }
}
