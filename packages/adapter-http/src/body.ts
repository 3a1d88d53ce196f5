import { Effect } from "effect"
import { type DomainError, InvalidInput, invalidInput, MAX_JSON_DEPTH, type MultipartBody, PayloadTooLarge, UnsupportedMediaType } from "@tessera/core"
import type { HttpRequest } from "./handler.ts"
import { textNestsDeeper, valueNestsDeeper } from "./json-depth.ts"
import { isMultipart, multipartAlreadyParsed, notMultipart, parseMultipart } from "./multipart.ts"

/**
 * Request bodies as the handler reads them: JSON for most endpoints, multipart/form-data for the
 * endpoints that declare `multipart`. Each answers 413 past its cap, 415 for another media type
 * and 400 for a malformed body, all as the error envelope.
 */

const isJson = (contentType: string | undefined) =>
  contentType !== undefined && /^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i.test(contentType.trim())

const utf8 = new TextDecoder("utf-8", { fatal: true })

type BodyResult = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: DomainError }

export const payloadTooLarge = (max: number) =>
  new PayloadTooLarge({ message: `Request body exceeds ${max} bytes`, details: { maxBytes: max } })

export const notJson = (contentType: string | undefined) =>
  new UnsupportedMediaType({ message: "Request bodies must be application/json", details: { contentType: contentType ?? null } })

export const malformedJson = () =>
  invalidInput([{ field: "body", message: "is not valid JSON" }], "Request body is not valid JSON")

// A 400, not a 413: the body is small; its shape is what no endpoint accepts (DECISIONS #116).
const nestsTooDeep = () =>
  invalidInput(
    [{ field: "body", message: `nests deeper than ${MAX_JSON_DEPTH} levels` }],
    `Request body nests deeper than ${MAX_JSON_DEPTH} levels`
  )

// The integrator's mistake, not the client's; still a 4xx, as no request may produce a 500.
const bodyConsumed = () =>
  new InvalidInput({
    message:
      "The request body was read before Tessera saw it and nothing was handed over: mount Tessera before any " +
      "body parser, leave the parsed body on req.body (express.json, express.raw and express.text do), or " +
      "pass the fetch handler a Request whose body is unread",
    details: { reason: "BODY_ALREADY_CONSUMED" }
  })

/** Reads a JSON body: 413 past the cap, 415 for another media type, 400 for malformed JSON. */
export const readBody = (req: HttpRequest, max: number): BodyResult => {
  const body = req.body
  if (body === "too-large") return { ok: false, error: payloadTooLarge(max) }
  if (body === "consumed") return { ok: false, error: bodyConsumed() }
  if ("parsed" in body) return readParsed(req, body.parsed, max)
  if (body.byteLength > max) return { ok: false, error: payloadTooLarge(max) }
  if (body.byteLength === 0) return { ok: true, value: undefined }
  const contentType = req.header("content-type")
  if (!isJson(contentType)) return { ok: false, error: notJson(contentType) }
  let text: string
  let value: unknown
  try {
    text = utf8.decode(body)
    value = JSON.parse(text)
  } catch {
    return { ok: false, error: malformedJson() }
  }
  return textNestsDeeper(text, MAX_JSON_DEPTH) ? { ok: false, error: nestsTooDeep() } : { ok: true, value }
}

/**
 * A body the host parsed gets the raw path's rules where the request still shows them: its
 * declared length against the cap, an empty body as no body (parsers turn it into `{}`), and
 * the JSON media type.
 */
const readParsed = (req: HttpRequest, value: unknown, max: number): BodyResult => {
  const declared = req.header("content-length")
  if (declared !== undefined && Number(declared) > max) return { ok: false, error: payloadTooLarge(max) }
  if (declared === "0") return { ok: true, value: undefined }
  const contentType = req.header("content-type")
  if (!isJson(contentType)) return { ok: false, error: notJson(contentType) }
  return valueNestsDeeper(value, MAX_JSON_DEPTH) ? { ok: false, error: nestsTooDeep() } : { ok: true, value }
}

/**
 * Reads a multipart/form-data body under the endpoint's own cap. The media type is judged first:
 * an endpoint that takes only multipart can refuse another type at any size. An empty body is no
 * body, as for JSON: the program then lists every missing field.
 */
export const readMultipartBody = (req: HttpRequest, max: number): Effect.Effect<MultipartBody | undefined, DomainError> => {
  const body = req.body
  const contentType = req.header("content-type")
  if (body === "consumed") return Effect.fail(bodyConsumed())
  const declared = req.header("content-length")
  const empty = body !== "too-large" && ("parsed" in body ? declared === "0" : body.byteLength === 0)
  if (empty) return Effect.succeed(undefined)
  if (!isMultipart(contentType)) return Effect.fail(notMultipart(contentType))
  if (body === "too-large") return Effect.fail(payloadTooLarge(max))
  if ("parsed" in body) {
    if (declared !== undefined && Number(declared) > max) return Effect.fail(payloadTooLarge(max))
    return Effect.fail(multipartAlreadyParsed())
  }
  if (body.byteLength > max) return Effect.fail(payloadTooLarge(max))
  return parseMultipart(body, contentType!)
}
