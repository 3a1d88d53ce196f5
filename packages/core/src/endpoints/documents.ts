import {
  deleteDocument,
  DocumentListQuery,
  getDocument,
  listDocuments,
  replaceDocument,
  uploadDocument
} from "../operations/documents/documents.ts"
import { DOCUMENT_UPLOAD_MAX_BYTES } from "../limits.ts"
import { endpoint, MultipartBodySchema } from "./define.ts"

// The served document keeps the reference's request schemas (a `format: binary` file field).
const upload = { body: MultipartBodySchema, documentBody: false, multipart: { maxBytes: DOCUMENT_UPLOAD_MAX_BYTES } } as const

export const documentEndpoints = [
  endpoint({
    group: "documents",
    name: "upload",
    method: "POST",
    path: "/documents",
    operationId: "uploadDocument",
    status: 201,
    summary: "Upload a JPEG, PNG or PDF (at most 10 MB, type judged by its bytes) for a customer or a beneficial owner",
    ...upload,
    run: (r) => uploadDocument(r.platform, r.body)
  }),
  endpoint({
    group: "documents",
    name: "list",
    method: "GET",
    path: "/documents",
    operationId: "listDocuments",
    status: 200,
    summary: "List the platform's documents in upload order, optionally of one holder, paged by cursor",
    query: DocumentListQuery,
    run: (r) => listDocuments(r.platform, r.query)
  }),
  endpoint({
    group: "documents",
    name: "get",
    method: "GET",
    path: "/documents/{documentId}",
    operationId: "getDocument",
    status: 200,
    summary: "Read one document's metadata (never its bytes)",
    run: (r) => getDocument(r.platform, r.params.documentId)
  }),
  endpoint({
    group: "documents",
    name: "replace",
    method: "PUT",
    path: "/documents/{documentId}",
    operationId: "replaceDocument",
    status: 200,
    summary: "Replace a document's file and metadata whole; its holder stays",
    ...upload,
    run: (r) => replaceDocument(r.platform, r.params.documentId, r.body)
  }),
  endpoint({
    group: "documents",
    name: "delete",
    method: "DELETE",
    path: "/documents/{documentId}",
    operationId: "deleteDocument",
    status: 204,
    summary: "Delete a document and its file; 409 once a verification has taken it in",
    run: (r) => deleteDocument(r.platform, r.params.documentId)
  })
]
