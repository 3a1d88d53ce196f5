import type { Engine } from "@tessera/core"
import { type HttpRequest, type HttpResponse, makeHandler, type MountOptions, readCap } from "./handler.ts"

export type FetchHandlerOptions = MountOptions

// Reads the rest of a body past the cap and drops it, so the client finishes sending and reads
// its 413 instead of a reset connection (the node listener's `req.resume()`).
const discard = (reader: ReadableStreamDefaultReader<Uint8Array>): void => {
  const pump = (): Promise<void> => reader.read().then((r) => (r.done ? undefined : pump()))
  pump().catch(() => undefined)
}

const readCapped = async (request: Request, max: number): Promise<HttpRequest["body"]> => {
  if (request.body === null) return new Uint8Array(0)
  // Read (or being read) by someone else: answer at once rather than wait on a stream that is done.
  if (request.bodyUsed || request.body.locked) return "consumed"
  const reader = request.body.getReader()
  if (Number(request.headers.get("content-length") ?? "0") > max) {
    discard(reader)
    return "too-large"
  }
  const chunks: Array<Uint8Array> = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > max) {
      discard(reader)
      return "too-large"
    }
    chunks.push(value)
  }
  const out = new Uint8Array(size)
  let at = 0
  for (const c of chunks) {
    out.set(c, at)
    at += c.byteLength
  }
  return out
}

/**
 * The whole API as a web-standard `Request → Response` function, for Hono, Next.js route
 * handlers, or any Node framework that speaks fetch.
 */
export const toFetchHandler = (engine: Engine, options: FetchHandlerOptions = {}) => {
  const handle = makeHandler(engine, options)
  const prefix = options.prefix ?? ""
  return async (request: Request): Promise<Response> => {
    const u = new URL(request.url)
    const path = prefix !== "" && u.pathname.startsWith(prefix) ? u.pathname.slice(prefix.length) : u.pathname
    const body = await readCapped(request, readCap(options, request.headers.get("content-type") ?? undefined))
    const res = await new Promise<HttpResponse>((resolve) =>
      handle({ method: request.method, url: path + u.search, header: (n) => request.headers.get(n) ?? undefined, body }, resolve)
    )
    const bodyless = res.status === 204 || request.method === "HEAD"
    return new Response(bodyless ? null : res.body, { status: res.status, headers: res.headers })
  }
}
