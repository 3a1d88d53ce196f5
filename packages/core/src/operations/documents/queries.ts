import { Schema } from "effect"
import { Documents } from "../../domain/collections.ts"
import { optional } from "../../domain/common.ts"
import { documentView } from "../../domain/documents/document.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { equal, listPage, pageParams } from "../common/listing.ts"

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
