import { Clock, Effect, Either, Option } from "effect"
import { BulkImportJobs } from "../../domain/collections.ts"
import {
  asColumnError,
  type BulkImportError,
  type BulkImportJobRecord,
  bulkImportJobView,
  csvColumns,
  ignoredCsvColumns,
  rowToBody
} from "../../domain/customers/bulk-import.ts"
import { type CsvProblem, decodeUtf8, parseCsv } from "../../domain/customers/csv.ts"
import { isDomainError } from "../../domain/envelope.ts"
import type { UploadedFile } from "../../endpoints/define.ts"
import { BulkUploadJobNotFound, InvalidInput, PayloadTooLarge } from "../../domain/errors.ts"
import { type FieldError, invalidInput, isJsonObject } from "../../domain/field-errors.ts"
import { isId, makeId } from "../../domain/ids.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { reply } from "../../domain/reply.ts"
import { rfc3339 } from "../../domain/time.ts"
import { BULK_CSV_MAX_BYTES, BULK_CSV_MAX_ROWS } from "../../limits.ts"
import { Ids } from "../../ports/ids.ts"
import { Notifier } from "../../ports/notifier.ts"
import { Store } from "../../ports/store.ts"
import { createCustomer } from "./create.ts"

/** The `file` part of a `MultipartBody` (what the HTTP adapter hands over, or an embedder passes). */
const csvFileOf = (input: unknown): UploadedFile | undefined => {
  const files = isJsonObject(input) && isJsonObject(input["files"]) ? input["files"] : undefined
  const file = files?.["file"]
  return isJsonObject(file) && file["bytes"] instanceof Uint8Array ? (file as unknown as UploadedFile) : undefined
}

const fileError = (message: string, details: Record<string, unknown> = {}) =>
  new InvalidInput({ message: `The CSV file ${message}`, details: { ...details, errors: [{ field: "file", message }] } })

/** The CSV's bytes from the multipart body: 400 without a `file` part, 413 past BULK_CSV_MAX_BYTES. */
const csvBytes = (input: unknown) =>
  Effect.gen(function* () {
    const file = csvFileOf(input)
    if (file === undefined)
      return yield* invalidInput([{ field: "file", message: "is required: a multipart/form-data body whose file part is the CSV" }])
    if (file.bytes.byteLength > BULK_CSV_MAX_BYTES)
      return yield* new PayloadTooLarge({ message: `The CSV file exceeds ${BULK_CSV_MAX_BYTES} bytes`, details: { maxBytes: BULK_CSV_MAX_BYTES } })
    return file.bytes
  })

const csvRefused = (p: CsvProblem) =>
  p.reason === "TOO_MANY_RECORDS"
    ? fileError(`holds more than ${BULK_CSV_MAX_ROWS} rows`, { reason: "TOO_MANY_ROWS", maxRows: BULK_CSV_MAX_ROWS })
    : fileError(`is not valid CSV: line ${p.line} ${p.message}`, { reason: "MALFORMED_CSV", line: p.line })

/** Every problem of the header row at once: unknown and repeated columns, no customerType. */
const headerProblems = (header: ReadonlyArray<string>): ReadonlyArray<FieldError> => {
  const problems: Array<FieldError> = []
  header.forEach((column, i) => {
    if (csvColumns[column] === undefined && !ignoredCsvColumns.has(column))
      problems.push({ field: "file", message: `column ${i + 1} (${JSON.stringify(column)}) is not a customer CSV column` })
    else if (header.indexOf(column) !== i) problems.push({ field: "file", message: `column ${column} appears more than once` })
  })
  if (!header.includes("customerType")) problems.push({ field: "file", message: "has no customerType column" })
  return problems
}

/** Reads the file into a header and its data rows, or the 400 that refuses the whole file. */
const readCsv = (bytes: Uint8Array) =>
  Effect.gen(function* () {
    const text = decodeUtf8(bytes)
    if (Either.isLeft(text)) return yield* csvRefused(text.left)
    const records = parseCsv(text.right, BULK_CSV_MAX_ROWS + 1)
    if (Either.isLeft(records)) return yield* csvRefused(records.left)
    const [header, ...rows] = records.right
    if (header === undefined) return yield* fileError("is empty: it needs a header row and at least one customer row", { reason: "EMPTY_CSV" })
    const problems = headerProblems(header)
    if (problems.length > 0) return yield* Effect.fail(invalidInput(problems, "The CSV file's header row is not valid"))
    if (rows.length === 0) return yield* fileError("has a header row but no customer rows", { reason: "EMPTY_CSV" })
    return { header, rows }
  })

/** A failed row as the job reports it: the envelope of its error, field names as the CSV's columns. */
const rowError = (correlationId: string, row: number, e: { readonly _tag: string; readonly message: string; readonly details?: Readonly<Record<string, unknown>> }): BulkImportError => {
  const fieldErrors = e.details?.["errors"] as ReadonlyArray<FieldError> | undefined
  const renamed = e._tag === "INVALID_INPUT" && fieldErrors !== undefined ? invalidInput(fieldErrors.map(asColumnError)) : undefined
  return {
    correlationId,
    code: e._tag,
    message: renamed?.message ?? e.message,
    details: { ...e.details, ...(renamed === undefined ? {} : { errors: renamed.details!["errors"] }), row }
  }
}

/**
 * POST /customers/bulk/csv. The whole file is read and checked first (a file refused creates
 * nothing); then each row is created as POST /customers would create it, in its own transaction,
 * so a failed row creates nothing and the others stand. The job is done when the answer leaves:
 * it is stored COMPLETED (FAILED when no row succeeded) with its BULK_UPLOAD webhook, and the
 * 202 says PROCESSING, the reference's status for an accepted job.
 */
export const importCustomersCsv = (platform: PlatformRecord, input: unknown) =>
  Effect.gen(function* () {
    const { header, rows } = yield* readCsv(yield* csvBytes(input))
    const id = makeId("Job", yield* (yield* Ids).uuid)
    const createdAt = rfc3339(yield* Clock.currentTimeMillis)
    const errors: Array<BulkImportError> = []
    for (const [i, cells] of rows.entries()) {
      const row = i + 1
      const correlationId = cells[header.indexOf("platformCustomerId")] || `row_${row}`
      if (cells.length > header.length) {
        errors.push(rowError(correlationId, row, invalidInput([{ field: "row", message: `has ${cells.length} fields; the header has ${header.length}` }])))
        continue
      }
      const created = yield* Effect.either(createCustomer(platform, rowToBody(header, cells)))
      if (Either.isLeft(created)) {
        // A store failure is not the row's fault: it fails the request, as anywhere else.
        if (!isDomainError(created.left)) return yield* Effect.fail(created.left)
        errors.push(rowError(correlationId, row, created.left))
      }
    }
    const now = rfc3339(yield* Clock.currentTimeMillis)
    const successful = rows.length - errors.length
    const job: BulkImportJobRecord = {
      id,
      status: successful === 0 ? "FAILED" : "COMPLETED",
      progress: { total: rows.length, processed: rows.length, successful, failed: errors.length },
      errors,
      createdAt,
      updatedAt: now,
      completedAt: now
    }
    const store = yield* Store
    const notifier = yield* Notifier
    yield* store.transaction(
      Effect.gen(function* () {
        yield* store.put(BulkImportJobs, platform.id, job)
        yield* notifier.publish(platform.id, { type: `BULK_UPLOAD.${job.status}`, resourceId: id, data: bulkImportJobView(job) })
      })
    )
    return reply(202, { jobId: id, status: "PROCESSING" as const })
  })

/** GET /customers/bulk/jobs/{jobId}: the job with its progress and row errors; 404 BULK_UPLOAD_JOB_NOT_FOUND. */
export const getBulkImportJob = (platform: PlatformRecord, jobId: string) =>
  Effect.gen(function* () {
    const found = isId("Job", jobId) ? yield* (yield* Store).get(BulkImportJobs, platform.id, jobId) : Option.none()
    if (Option.isNone(found))
      return yield* new BulkUploadJobNotFound({ message: `Bulk upload job ${jobId} not found`, details: { jobId } })
    return bulkImportJobView(found.value)
  })
