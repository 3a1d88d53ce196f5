import { Either } from "effect"
import type { UploadedFile } from "../../endpoints/define.ts"
import { DOCUMENT_MAX_FILE_BYTES, DOCUMENT_MAX_FILE_NAME } from "../../limits.ts"
import type { FieldError } from "../field-errors.ts"
import type { DocumentFileType } from "./document.ts"

/**
 * A document's type is what its bytes say (DECISIONS #149): three fixed signatures, written out
 * rather than taken from a sniffing library, since three constants need no dependency and the
 * maintained one (`file-type`) is ESM-only, asynchronous and knows hundreds of types we refuse.
 */
const signatures: ReadonlyArray<readonly [DocumentFileType, ReadonlyArray<number>]> = [
  ["image/jpeg", [0xff, 0xd8, 0xff]],
  ["image/png", [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  // "%PDF-": at the very start, as every PDF writer puts it (readers tolerate junk before it; we do not).
  ["application/pdf", [0x25, 0x50, 0x44, 0x46, 0x2d]]
]

export const sniffFileType = (bytes: Uint8Array): DocumentFileType | undefined =>
  signatures.find(([, sig]) => sig.length <= bytes.byteLength && sig.every((b, i) => bytes[i] === b))?.[0]

const described: Record<DocumentFileType, string> = {
  "image/jpeg": "a JPEG image",
  "image/png": "a PNG image",
  "application/pdf": "a PDF document"
}

/** Names and declared types that agree with each detected type (common aliases included). */
const extensions: Record<DocumentFileType, ReadonlyArray<string>> = {
  "image/jpeg": ["jpg", "jpeg", "jpe", "jfif"],
  "image/png": ["png"],
  "application/pdf": ["pdf"]
}
const declaredAliases: Record<DocumentFileType, ReadonlyArray<string>> = {
  "image/jpeg": ["image/jpeg", "image/jpg", "image/pjpeg"],
  "image/png": ["image/png", "image/x-png"],
  "application/pdf": ["application/pdf", "application/x-pdf"]
}

/**
 * Declared types that claim nothing: a client that does not know the type sends octet-stream,
 * and the multipart parser reports a part sent without Content-Type as text/plain.
 */
const noClaim = new Set(["", "application/octet-stream", "text/plain"])

const extensionOf = (fileName: string): string | undefined => {
  const base = fileName.slice(Math.max(fileName.lastIndexOf("/"), fileName.lastIndexOf("\\")) + 1)
  const dot = base.lastIndexOf(".")
  return dot <= 0 || dot === base.length - 1 ? undefined : base.slice(dot + 1).toLowerCase()
}

const mediaTypeOf = (contentType: string) => contentType.split(";")[0]!.trim().toLowerCase()

/** A file that passed: its detected type and its bytes. */
export interface CheckedFile {
  readonly fileName: string
  readonly fileType: DocumentFileType
  readonly bytes: Uint8Array
}

const fileError = (message: string): FieldError => ({ field: "file", message })

/**
 * Checks an uploaded file: a name, not empty, at most 10 MB, a JPEG, PNG or PDF by its bytes,
 * and neither its name's extension nor its declared type saying otherwise (DECISIONS #150).
 */
export const checkFile = (file: UploadedFile): Either.Either<CheckedFile, FieldError> => {
  const { fileName, contentType, bytes } = file
  if (fileName === "") return Either.left(fileError("must be sent with a file name"))
  if (fileName.length > DOCUMENT_MAX_FILE_NAME)
    return Either.left(fileError(`must have a file name of at most ${DOCUMENT_MAX_FILE_NAME} characters`))
  if (bytes.byteLength === 0) return Either.left(fileError("is empty"))
  if (bytes.byteLength > DOCUMENT_MAX_FILE_BYTES)
    return Either.left(fileError(`is larger than 10 MB (${DOCUMENT_MAX_FILE_BYTES} bytes)`))
  const fileType = sniffFileType(bytes)
  if (fileType === undefined) return Either.left(fileError("must be a JPEG, PNG or PDF file (judged by its content)"))
  const ext = extensionOf(fileName)
  if (ext !== undefined && !extensions[fileType].includes(ext))
    return Either.left(fileError(`is named .${ext} but its content is ${described[fileType]}`))
  const declared = mediaTypeOf(contentType)
  if (!noClaim.has(declared) && !declaredAliases[fileType].includes(declared))
    return Either.left(fileError(`is declared as ${declared} but its content is ${described[fileType]}`))
  return Either.right({ fileName, fileType, bytes })
}
