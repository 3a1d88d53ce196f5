import type { Duplex } from "node:stream"
import type { ErrorEnvelope } from "@tessera/core"

/**
 * What node:http's parser and timers reject before any handler runs, by the error's code. The
 * core never raises these, so their envelopes are made here (DECISIONS #117).
 */
const envelopeFor = (code: string | undefined): { readonly reason: string; readonly envelope: ErrorEnvelope } => {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return {
        reason: "Request Header Fields Too Large",
        envelope: {
          status: 431,
          code: "REQUEST_HEADER_FIELDS_TOO_LARGE",
          message: "The request's headers are too large",
          details: {}
        }
      }
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return {
        reason: "Request Timeout",
        envelope: { status: 408, code: "REQUEST_TIMEOUT", message: "The request did not arrive in time", details: {} }
      }
    default:
      return {
        reason: "Bad Request",
        envelope: {
          status: 400,
          code: "INVALID_INPUT",
          message: "The request is not well-formed HTTP",
          details: code === undefined ? {} : { parserError: code }
        }
      }
  }
}

/**
 * The server's `clientError` listener: writes the error envelope as a whole HTTP response and
 * closes the connection, where node:http would send a bare status line with no body. A
 * connection whose response has begun, or that cannot be written, is only destroyed.
 */
export const answerClientError = (err: Error & { readonly code?: string; readonly rawPacket?: Buffer }, socket: Duplex): void => {
  const inFlight = (socket as Duplex & { readonly _httpMessage?: { readonly headersSent?: boolean } })._httpMessage
  if (err.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent === true) {
    socket.destroy()
    return
  }
  const { reason, envelope } = envelopeFor(err.code)
  const body = JSON.stringify(envelope)
  // A HEAD request's answer has no body, even this one: a client reading it would take the body
  // for the start of a next response. The parser hands over what it read, so the method is known.
  const head = err.rawPacket?.subarray(0, 5).toString("latin1") === "HEAD "
  socket.end(
    `HTTP/1.1 ${envelope.status} ${reason}\r\n` +
      "content-type: application/json; charset=utf-8\r\n" +
      `content-length: ${Buffer.byteLength(body)}\r\n` +
      "connection: close\r\n\r\n" +
      (head ? "" : body)
  )
}
