import type { Engine } from "@tessera/core"
import { DEFAULT_MAX_BODY_BYTES, type HandlerOptions, type HttpResponse, makeHandler } from "./handler.ts"

export interface FetchHandlerOptions extends HandlerOptions {
  /** A path prefix the host mounts Tessera under (e.g. `/tessera`), stripped before routing. */
  readonly prefix?: string
}

const readCapped = async (request: Request, max: number): Promise<Uint8Array | "too-large"> => {
  if (request.body === null) return new Uint8Array(0)
  if (Number(request.headers.get("content-length") ?? "0") > max) return "too-large"
  const reader = request.body.getReader()
  const chunks: Array<Uint8Array> = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > max) {
      await reader.cancel()
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
  const max = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  const prefix = options.prefix ?? ""
  return async (request: Request): Promise<Response> => {
    const u = new URL(request.url)
    const path = prefix !== "" && u.pathname.startsWith(prefix) ? u.pathname.slice(prefix.length) : u.pathname
    const body = await readCapped(request, max)
    const res = await new Promise<HttpResponse>((resolve) =>
      handle({ method: request.method, url: path + u.search, header: (n) => request.headers.get(n) ?? undefined, body }, resolve)
    )
    return new Response(res.status === 204 ? null : res.body, { status: res.status, headers: res.headers })
  }
}
