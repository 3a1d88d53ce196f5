import type { IncomingMessage, ServerResponse } from "node:http"
import { type DomainError, envelopeOf } from "@tessera/core"
import { malformedJson, notJson, payloadTooLarge } from "./body.ts"

/** What body-parser (express.json, express.raw, express.text) puts on the errors it raises. */
interface ParserError {
  readonly type?: unknown
  readonly limit?: unknown
}

const asDomainError = (err: unknown, req: IncomingMessage): DomainError | undefined => {
  if (typeof err !== "object" || err === null) return undefined
  const e = err as ParserError
  switch (e.type) {
    case "entity.parse.failed":
      return malformedJson()
    case "entity.too.large":
      return payloadTooLarge(typeof e.limit === "number" ? e.limit : 0)
    case "charset.unsupported":
    case "encoding.unsupported":
      return notJson(req.headers["content-type"])
    default:
      return undefined
  }
}

/**
 * Express error middleware for the path Tessera is mounted on: a body parser in front of it
 * answers malformed, oversized or undecodable bodies before Tessera runs, and this turns those
 * answers into Tessera's error envelope (400, 413, 415). Any other error goes on to `next`.
 */
export const bodyParserErrors = (
  err: unknown,
  req: IncomingMessage,
  res: ServerResponse,
  next: (err?: unknown) => void
): void => {
  const e = asDomainError(err, req)
  if (e === undefined || res.headersSent) return next(err)
  const body = JSON.stringify(envelopeOf(e))
  res.writeHead(e.status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": String(Buffer.byteLength(body))
  })
  res.end(body)
}
