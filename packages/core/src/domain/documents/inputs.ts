import { Either, Schema } from "effect"
import type { MultipartBody, UploadedFile } from "../../endpoints/define.ts"
import { CountryCode, NonEmpty, optional } from "../common.ts"
import { type FieldError, fieldErrorsOf, invalidInput } from "../field-errors.ts"
import type { InvalidInput } from "../errors.ts"
import { type BeneficialOwnerId, type CustomerId, isId } from "../ids.ts"
import { checkFile, type CheckedFile } from "./file-type.ts"
import { DocumentSide, DocumentType } from "./document.ts"

/** A Customer or BeneficialOwner id, by its form; whether it exists is the operation's 404. */
const HolderId = Schema.String.pipe(
  Schema.filter((s) => isId("Customer", s) || isId("BeneficialOwner", s), {
    message: () => "must be a Customer or BeneficialOwner id",
    jsonSchema: { pattern: "^(Customer|BeneficialOwner):<uuid>$" }
  })
)

/** The reference's `BaseDocumentRequest` text fields (`DocumentReplaceRequest`). */
const replaceFields = {
  documentType: DocumentType,
  country: CountryCode,
  side: optional(DocumentSide),
  documentNumber: optional(NonEmpty(100)),
  issuingAuthority: optional(NonEmpty(200)),
  // Not the reference's on a replace: accepted only when it names the holder already there.
  documentHolder: optional(HolderId)
}
const ReplaceFields = Schema.Struct(replaceFields)
/** `DocumentUploadRequest`: the same with `documentHolder` required. */
const UploadFields = Schema.Struct({ ...replaceFields, documentHolder: HolderId })

const textNames = ["documentType", "country", "documentHolder", "side", "documentNumber", "issuingAuthority"] as const
const optionalNames = new Set(["side", "documentNumber", "issuingAuthority"])

export type DocumentFields = typeof ReplaceFields.Type
export interface DocumentInput extends DocumentFields {
  readonly file: CheckedFile
}
export interface UploadInput extends DocumentInput {
  readonly documentHolder: CustomerId | BeneficialOwnerId
}

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const isUploadedFile = (u: unknown): u is UploadedFile =>
  isRecord(u) && typeof u["fileName"] === "string" && typeof u["contentType"] === "string" && u["bytes"] instanceof Uint8Array

/**
 * The body as a `MultipartBody`: what the HTTP adapter hands over, or what an embedder passes.
 * No body at all is an empty form (every required field is then reported missing).
 */
const multipartOf = (input: unknown): MultipartBody | undefined => {
  if (input === undefined) return { fields: {}, files: {} }
  if (!isRecord(input) || !isRecord(input["fields"]) || !isRecord(input["files"])) return undefined
  const files = input["files"]
  return Object.values(files).every(isUploadedFile) ? (input as unknown as MultipartBody) : undefined
}

const notMultipart = () =>
  invalidInput([{ field: "body", message: "must be multipart/form-data: text fields and a file part named file" }])

/**
 * Decodes a document upload (or replace) from a multipart body, listing every invalid field at
 * once: the text fields against the reference's schema, a text field sent as a file or the file
 * sent as text (DECISIONS #146), and the file's own checks. An optional text field sent empty is
 * left out, as an HTML form sends every input it has.
 */
const decodeDocument = <A extends DocumentFields>(schema: Schema.Schema<A, any>) => {
  const decode = Schema.decodeUnknownEither(schema, { errors: "all", onExcessProperty: "ignore" })
  return (input: unknown): Either.Either<A & { readonly file: CheckedFile }, InvalidInput> => {
    const body = multipartOf(input)
    if (body === undefined) return Either.left(notMultipart())
    const errors = new Map<string, FieldError>()
    const set = (e: FieldError) => errors.set(e.field, e)
    let file: CheckedFile | undefined
    const sent = body.files["file"]
    if (sent !== undefined) {
      const checked = checkFile(sent)
      if (Either.isLeft(checked)) set(checked.left)
      else file = checked.right
    } else set({ field: "file", message: "file" in body.fields ? "must be a file part (with a filename), not a text field" : "is required" })
    const text = Object.fromEntries(Object.entries(body.fields).filter(([k, v]) => !(optionalNames.has(k) && v === "")))
    const decoded = decode(text)
    if (Either.isLeft(decoded)) for (const e of fieldErrorsOf(decoded.left)) set(e)
    for (const name of textNames)
      if (name in body.files && !(name in body.fields)) set({ field: name, message: "must be a text field, not a file part" })
    if (errors.size > 0 || file === undefined || Either.isLeft(decoded)) return Either.left(invalidInput([...errors.values()]))
    return Either.right({ ...decoded.right, file })
  }
}

export const decodeUpload: (input: unknown) => Either.Either<UploadInput, InvalidInput> = decodeDocument(UploadFields)
export const decodeReplace: (input: unknown) => Either.Either<DocumentInput, InvalidInput> = decodeDocument(ReplaceFields)
