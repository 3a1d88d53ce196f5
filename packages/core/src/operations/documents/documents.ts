import { createHash } from "node:crypto"
import { Clock, Effect, Option, Schema } from "effect"
import { BeneficialOwners, Customers, DocumentFiles, Documents } from "../../domain/collections.ts"
import { optional } from "../../domain/common.ts"
import { type DocumentRecord, documentView } from "../../domain/documents/document.ts"
import { decodeReplace, decodeUpload, type DocumentInput } from "../../domain/documents/inputs.ts"
import { Conflict, UserNotFound } from "../../domain/errors.ts"
import { invalidInput } from "../../domain/field-errors.ts"
import { type CustomerId, type DocumentId, isId, makeId } from "../../domain/ids.ts"
import { referenceNotFound } from "../../domain/not-found.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { rfc3339 } from "../../domain/time.ts"
import { Ids } from "../../ports/ids.ts"
import { Store } from "../../ports/store.ts"
import { equal, listPage, pageParams } from "../common/listing.ts"

/**
 * The holder of a document: a customer of the platform that is not deleted, or one of its
 * beneficial owners. Answers the customer the document belongs to, which a verification reads by.
 */
const holderCustomer = (platform: PlatformRecord, holder: string) =>
  Effect.flatMap(Store, (store): Effect.Effect<CustomerId, unknown> => {
    if (isId("Customer", holder))
      return Effect.flatMap(store.get(Customers, platform.id, holder), (found) =>
        Option.isSome(found) && !found.value.isDeleted
          ? Effect.succeed(found.value.id as CustomerId)
          : Effect.fail(new UserNotFound({ message: `Customer ${holder} not found`, details: { customerId: holder } }))
      )
    return Effect.flatMap(store.get(BeneficialOwners, platform.id, holder), (found) =>
      Option.isSome(found) ? Effect.succeed(found.value.customerId) : Effect.fail(referenceNotFound("BeneficialOwner", holder))
    )
  })

const loadDocument = (platform: PlatformRecord, id: string) =>
  isId("Document", id)
    ? Effect.flatMap(Store, (store) =>
        Effect.flatMap(store.get(Documents, platform.id, id), (found) =>
          Option.isSome(found) ? Effect.succeed(found.value) : Effect.fail(referenceNotFound("Document", id))
        )
      )
    : Effect.fail(referenceNotFound("Document", id))

/** The record's file facts and the bytes' stored form, from a checked file. */
const fileParts = (input: DocumentInput) => ({
  fileName: input.file.fileName,
  fileType: input.file.fileType,
  fileSize: input.file.bytes.byteLength,
  fileSha256: createHash("sha256").update(input.file.bytes).digest("hex"),
  base64: Buffer.from(input.file.bytes.buffer, input.file.bytes.byteOffset, input.file.bytes.byteLength).toString("base64")
})

const metadata = (input: DocumentInput) => ({
  documentType: input.documentType,
  country: input.country,
  ...(input.side === undefined ? {} : { side: input.side }),
  ...(input.documentNumber === undefined ? {} : { documentNumber: input.documentNumber }),
  ...(input.issuingAuthority === undefined ? {} : { issuingAuthority: input.issuingAuthority })
})

/**
 * POST /documents (multipart). The document and its bytes are written in one transaction, after
 * every field checked and the holder found (400 before 404).
 */
export const uploadDocument = (platform: PlatformRecord, body: unknown) =>
  Effect.gen(function* () {
    const input = yield* decodeUpload(body)
    const { base64, ...file } = fileParts(input)
    const store = yield* Store
    const uuid = yield* (yield* Ids).uuid
    return yield* store.transaction(
      Effect.gen(function* () {
        const customerId = yield* holderCustomer(platform, input.documentHolder)
        const now = rfc3339(yield* Clock.currentTimeMillis)
        const id = makeId("Document", uuid)
        const record: DocumentRecord = {
          id,
          documentHolder: input.documentHolder,
          customerId,
          ...metadata(input),
          ...file,
          createdAt: now,
          updatedAt: now
        }
        yield* store.put(Documents, platform.id, record)
        yield* store.put(DocumentFiles, platform.id, { id, base64 })
        return documentView(record)
      })
    )
  })

export const DocumentListQuery = Schema.Struct({
  documentHolder: optional(Schema.String),
  ...pageParams
})

/**
 * GET /documents: the platform's documents in upload order, optionally of one holder, paged by
 * cursor. A holder that is not one (or not this platform's) lists nothing, as other list filters do.
 */
export const listDocuments = (platform: PlatformRecord, query: unknown) =>
  listPage({
    collection: Documents,
    scope: platform.id,
    querySchema: DocumentListQuery,
    query,
    where: (q) => [equal("documentHolder", q.documentHolder)],
    view: documentView
  })

export const getDocument = (platform: PlatformRecord, id: string) => Effect.map(loadDocument(platform, id), documentView)

/**
 * PUT /documents/{documentId} (multipart): a new file and new metadata, replacing the old ones
 * whole, the record and the bytes in one transaction. The holder stays; a submitted document can
 * be replaced (the reference's use: re-upload a rejected one) and stays submitted (DECISIONS #151).
 */
export const replaceDocument = (platform: PlatformRecord, id: string, body: unknown) =>
  Effect.gen(function* () {
    const input = yield* decodeReplace(body)
    const { base64, ...file } = fileParts(input)
    const store = yield* Store
    return yield* store.transaction(
      Effect.gen(function* () {
        const current = yield* loadDocument(platform, id)
        if (input.documentHolder !== undefined && input.documentHolder !== current.documentHolder)
          return yield* Effect.fail(
            invalidInput([{ field: "documentHolder", message: "cannot be changed by a replace; upload a new document for another holder" }])
          )
        const record: DocumentRecord = {
          id: current.id,
          documentHolder: current.documentHolder,
          customerId: current.customerId,
          ...metadata(input),
          ...file,
          ...(current.submittedAt === undefined ? {} : { submittedAt: current.submittedAt }),
          createdAt: current.createdAt,
          updatedAt: rfc3339(yield* Clock.currentTimeMillis)
        }
        yield* store.put(Documents, platform.id, record)
        yield* store.put(DocumentFiles, platform.id, { id: current.id, base64 })
        return documentView(record)
      })
    )
  })

/** DELETE /documents/{documentId}: the record and its bytes, or 409 once a verification took it in. */
export const deleteDocument = (platform: PlatformRecord, id: string) =>
  Effect.gen(function* () {
    const store = yield* Store
    return yield* store.transaction(
      Effect.gen(function* () {
        const current = yield* loadDocument(platform, id)
        if (current.submittedAt !== undefined)
          return yield* Effect.fail(
            new Conflict({
              message: `Document ${id} was submitted for verification and cannot be deleted`,
              details: { documentId: id, submittedAt: current.submittedAt }
            })
          )
        yield* store.remove(Documents, platform.id, current.id)
        yield* store.remove(DocumentFiles, platform.id, current.id)
      })
    )
  })

/** A document's bytes, for the engine's own readers (tests, a verification): never served. */
export const documentBytes = (platform: PlatformRecord, id: DocumentId) =>
  Effect.map(Effect.flatMap(Store, (store) => store.get(DocumentFiles, platform.id, id)), (found) =>
    Option.map(found, (f) => new Uint8Array(Buffer.from(f.base64, "base64")))
  )
