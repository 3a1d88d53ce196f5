import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import {
  type Engine,
  HTTP_HEADERS_TIMEOUT_MS,
  HTTP_KEEP_ALIVE_TIMEOUT_MS,
  HTTP_REQUEST_TIMEOUT_MS,
  HTTP_TIMEOUT_CHECK_INTERVAL_MS
} from "@tessera/core"
import { answerClientError } from "./client-errors.ts"
import { type HandlerOptions, type HttpRequest, makeHandler, type MountOptions, readCap } from "./handler.ts"

export interface ServeOptions extends HandlerOptions {
  readonly engine: Engine
  readonly port?: number
  readonly host?: string
  /**
   * Requests that arrive before this settles wait for it: the port is bound (so a busy port is
   * known) while the caller still prepares the engine, e.g. imports a seed.
   */
  readonly ready?: Promise<void>
  /** The server's connection timeouts; each defaults to its `HTTP_*` value in the core's limits. */
  readonly timeouts?: ServerTimeouts
}

export interface ServerTimeouts {
  /** An idle keep-alive connection is closed after this long. */
  readonly keepAliveMs?: number
  /** A request whose headers have not all arrived after this long is answered 408 and closed. */
  readonly headersMs?: number
  /** A request (headers and body) not all arrived after this long is answered 408 and closed. */
  readonly requestMs?: number
  /** How often the server looks for requests past their headers or request timeout. */
  readonly checkIntervalMs?: number
}

export interface RunningServer {
  readonly server: Server
  readonly port: number
  /** Base URL of the API, including the version segment. */
  readonly url: string
  /** Stops accepting, lets in-flight requests finish, closes idle keep-alive sockets. */
  readonly close: () => Promise<void>
}

const EMPTY = new Uint8Array(0)

export type NodeListenerOptions = MountOptions

/**
 * The body of a request whose stream a host framework already read: what it left on `req.body`
 * (bytes from express.raw, a string from express.text, a parsed value from express.json or a
 * hand-over), or `"consumed"` when it left nothing.
 */
const handedOver = (body: unknown): HttpRequest["body"] => {
  if (body === undefined) return "consumed"
  if (body instanceof Uint8Array) return body
  if (typeof body === "string") return Buffer.from(body, "utf8")
  return { parsed: body }
}

/**
 * A thin `node:http` adapter: the request is read here, then one core program runs per request
 * (synchronously when the store is synchronous). See README, "Why a thin node:http adapter".
 * Mounted in a framework, it takes the body the framework already read from `req.body`.
 */
export const nodeListener = (engine: Engine, options: NodeListenerOptions = {}) => {
  const handle = makeHandler(engine, options)
  const prefix = options.prefix ?? ""
  return (req: IncomingMessage & { readonly body?: unknown }, res: ServerResponse): void => {
    const finish = (body: HttpRequest["body"]) => {
      const url = req.url ?? "/"
      const request: HttpRequest = {
        method: req.method ?? "GET",
        url: prefix !== "" && url.startsWith(prefix) ? url.slice(prefix.length) : url,
        header: (name) => {
          const v = req.headers[name]
          return Array.isArray(v) ? v.join(", ") : v
        },
        body
      }
      handle(request, (r) => {
        if (body === "too-large") r.headers["connection"] = "close"
        // A known length lets node:http send head and body in one write instead of chunking.
        // A HEAD's answer carries its GET body's length already (node:http sends no body for it).
        if (r.status !== 204) r.headers["content-length"] ??= String(Buffer.byteLength(r.body))
        res.writeHead(r.status, r.headers)
        res.end(r.body)
      })
    }
    // Decided by the stream, not by req.body: Express 4 sets `req.body = {}` on requests its
    // parser skipped, whose stream is still unread.
    if (!req.readable || req.readableDidRead) return finish(handedOver(req.body))
    const max = readCap(options, req.headers["content-type"])
    const declared = Number(req.headers["content-length"] ?? "0")
    if (declared > max) {
      req.resume()
      return finish("too-large")
    }
    if (declared === 0 && req.headers["transfer-encoding"] === undefined) {
      req.resume()
      return finish(EMPTY)
    }
    const chunks: Array<Buffer> = []
    let size = 0
    let over = false
    req.on("data", (c: Buffer) => {
      if (over) return
      size += c.length
      if (size > max) {
        over = true
        chunks.length = 0
        finish("too-large")
        return
      }
      chunks.push(c)
    })
    req.on("end", () => {
      if (!over) finish(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks))
    })
    req.on("error", () => res.destroy())
  }
}

export const serve = (options: ServeOptions): Promise<RunningServer> =>
  new Promise((resolve, reject) => {
    const listener = nodeListener(options.engine, options)
    const ready = options.ready
    let open = ready === undefined
    const openUp = () => {
      open = true
    }
    void ready?.then(openUp, openUp)
    const held = (req: IncomingMessage, res: ServerResponse) => {
      if (open) return listener(req, res)
      const go = () => listener(req, res)
      void ready!.then(go, go)
    }
    const t = options.timeouts ?? {}
    const requestTimeout = t.requestMs ?? HTTP_REQUEST_TIMEOUT_MS
    const server = createServer(
      {
        keepAliveTimeout: t.keepAliveMs ?? HTTP_KEEP_ALIVE_TIMEOUT_MS,
        // node:http requires headersTimeout <= requestTimeout.
        headersTimeout: Math.min(t.headersMs ?? HTTP_HEADERS_TIMEOUT_MS, requestTimeout),
        requestTimeout,
        connectionsCheckingInterval: t.checkIntervalMs ?? HTTP_TIMEOUT_CHECK_INTERVAL_MS
      },
      ready === undefined ? listener : held
    )
    server.on("clientError", answerClientError)
    server.once("error", reject)
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      const port = (server.address() as AddressInfo).port
      const host = options.host ?? "127.0.0.1"
      const shownHost = host.includes(":") ? `[${host}]` : host
      resolve({
        server,
        port,
        url: `http://${shownHost}:${port}/2025-10-13`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done())
            server.closeIdleConnections()
          })
      })
    })
  })
