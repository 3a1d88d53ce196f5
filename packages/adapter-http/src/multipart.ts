import { Effect } from "effect"
import {
  type DomainError,
  type FieldError,
  InvalidInput,
  invalidInput,
  type MultipartBody,
  UnsupportedMediaType,
  type UploadedFile
} from "@tessera/core"

/**
 * multipart/form-data for the endpoints that declare `multipart` (DECISIONS #145). The transport
 * has already read the whole body under the endpoint's cap; this turns the bytes into the core's
 * `MultipartBody`. The parsing itself is the WHATWG one the runtime ships (`Response.formData()`,
 * undici on Node): no dependency, the same parser on every runtime the fetch handler runs on.
 */

const MULTIPART = /^multipart\/form-data\s*(;|$)/i

export const isMultipart = (contentType: string | undefined): boolean =>
  contentType !== undefined && MULTIPART.test(contentType.trim())

const boundaryOf = (contentType: string): string | undefined => {
  const m = /;\s*boundary\s*=\s*(?:"([^"]+)"|([^\s;]+))/i.exec(contentType)
  return m?.[1] ?? m?.[2]
}

export const notMultipart = (contentType: string | undefined) =>
  new UnsupportedMediaType({
    message: "Request bodies of this endpoint must be multipart/form-data",
    details: { contentType: contentType ?? null }
  })

export const malformedMultipart = (why: string) =>
  invalidInput([{ field: "body", message: why }], `Request body is not valid multipart/form-data: ${why}`)

// A framework's multipart parser (multer, formidable) read the stream and left only its fields:
// the files are gone, so nothing faithful can be handed to the program.
export const multipartAlreadyParsed = () =>
  new InvalidInput({
    message:
      "The multipart body was parsed before Tessera saw it: mount Tessera before any multipart parser " +
      "(multer, formidable), or hand it the raw bytes on req.body (express.raw)",
    details: { reason: "BODY_ALREADY_CONSUMED" }
  })

const repeated = (names: ReadonlyArray<string>): DomainError =>
  invalidInput(
    names.map((field): FieldError => ({ field, message: "is sent more than once; send each field once" })),
    names.length === 1 ? `Field ${names[0]} is sent more than once` : `Fields ${names.join(", ")} are sent more than once`
  )

/**
 * Parses a multipart/form-data body into text fields and files. A part with a `filename` is a
 * file (even an empty one), any other part a text field. A name sent twice is a 400 naming it:
 * the body's meaning would otherwise depend on which copy a reader keeps (DECISIONS #146).
 */
export const parseMultipart = (bytes: Uint8Array, contentType: string): Effect.Effect<MultipartBody, DomainError> => {
  if (!isMultipart(contentType)) return Effect.fail(notMultipart(contentType))
  if (boundaryOf(contentType) === undefined) return Effect.fail(malformedMultipart("the content type names no boundary"))
  return Effect.flatMap(
    Effect.tryPromise({
      try: () => new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { "content-type": contentType } }).formData(),
      // The runtime's parser says only that it failed (truncated, no closing boundary, garbage).
      catch: () => malformedMultipart("the parts do not follow the boundary framing")
    }),
    (form) => {
      const fields: Array<[string, string]> = []
      const files: Array<[string, File]> = []
      const seen = new Set<string>()
      const twice = new Set<string>()
      form.forEach((value, name) => {
        if (seen.has(name)) twice.add(name)
        seen.add(name)
        if (typeof value === "string") fields.push([name, value])
        else files.push([name, value])
      })
      if (twice.size > 0) return Effect.fail(repeated([...twice]))
      return Effect.map(
        Effect.tryPromise({
          try: () => Promise.all(files.map(([name, file]) => fileOf(file).then((f) => [name, f] as const))),
          catch: () => malformedMultipart("a file part could not be read")
        }),
        // fromEntries defines own properties, so a field named `__proto__` is just a name.
        (read): MultipartBody => ({ fields: Object.fromEntries(fields), files: Object.fromEntries(read) })
      )
    }
  )
}

const fileOf = async (file: File): Promise<UploadedFile> => ({
  fileName: file.name,
  contentType: file.type,
  bytes: new Uint8Array(await file.arrayBuffer())
})
