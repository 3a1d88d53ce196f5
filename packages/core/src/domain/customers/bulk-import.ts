import { Schema } from "effect"
import type { FieldError } from "../field-errors.ts"

/**
 * Bulk customer import (reference: `uploadCustomersCsv`, `BulkCustomerImportJob`). Each CSV row
 * is a POST /customers body, named by flat columns: the reference's columns, and the same naming
 * for the other create fields, so every field POST /customers takes can be given.
 */

/** Column → the create body's dot path. */
export const csvColumns: Readonly<Record<string, string>> = {
  // The reference's columns.
  umaAddress: "umaAddress",
  platformCustomerId: "platformCustomerId",
  customerType: "customerType",
  fullName: "fullName",
  birthDate: "birthDate",
  email: "email",
  addressLine1: "address.line1",
  addressLine2: "address.line2",
  city: "address.city",
  state: "address.state",
  postalCode: "address.postalCode",
  country: "address.country",
  businessLegalName: "businessInfo.legalName",
  businessRegistrationNumber: "businessInfo.registrationNumber",
  businessTaxId: "businessInfo.taxId",
  // The other create fields, named the same way.
  region: "region",
  phoneNumber: "phoneNumber",
  nationality: "nationality",
  idType: "idType",
  identifier: "identifier",
  businessCountry: "businessInfo.country",
  businessIncorporatedOn: "businessInfo.incorporatedOn",
  businessDoingBusinessAs: "businessInfo.doingBusinessAs",
  businessEntityType: "businessInfo.entityType"
}

/** Reference columns with no customer field here: accepted and not kept. */
export const ignoredCsvColumns: ReadonlySet<string> = new Set(["platformAccountId", "description"])

const columnOfPath: ReadonlyMap<string, string> = new Map(Object.entries(csvColumns).map(([column, path]) => [path, column]))

/** A field error of the create body, renamed to the column the row gave it in. */
export const asColumnError = (e: FieldError): FieldError => ({ ...e, field: columnOfPath.get(e.field) ?? e.field })

/**
 * One row as a create body. An empty cell is a field not given. A business row always gets a
 * `businessInfo` object, so each missing part is reported under its own column.
 */
export const rowToBody = (header: ReadonlyArray<string>, cells: ReadonlyArray<string>): Record<string, unknown> => {
  const body: Record<string, unknown> = {}
  header.forEach((column, i) => {
    const path = csvColumns[column]
    const value = cells[i] ?? ""
    if (path === undefined || value === "") return
    const [head, sub] = path.split(".") as [string, string | undefined]
    if (sub === undefined) body[head] = value
    else body[head] = { ...(body[head] as Record<string, unknown> | undefined), [sub]: value }
  })
  if (body["customerType"] === "BUSINESS") body["businessInfo"] ??= {}
  return body
}

export const BulkImportStatus = Schema.Literal("PENDING", "PROCESSING", "COMPLETED", "FAILED")
export type BulkImportStatus = typeof BulkImportStatus.Type

/** One failed row (reference: `BulkCustomerImportErrorEntry`): the envelope's code, message and details. */
export interface BulkImportError {
  /** The row's platformCustomerId, or `row_<n>` (data rows counted from 1) when it has none. */
  readonly correlationId: string
  readonly code: string
  readonly message: string
  readonly details: Readonly<Record<string, unknown>>
}

export interface BulkImportProgress {
  readonly total: number
  readonly processed: number
  readonly successful: number
  readonly failed: number
}

export interface BulkImportJobRecord {
  readonly id: string
  readonly status: BulkImportStatus
  readonly progress: BulkImportProgress
  readonly errors: ReadonlyArray<BulkImportError>
  readonly createdAt: string
  readonly updatedAt: string
  readonly completedAt?: string
}

/** The reference's `BulkCustomerImportJob`. */
export const bulkImportJobView = (job: BulkImportJobRecord) => ({
  id: job.id,
  status: job.status,
  progress: job.progress,
  errors: job.errors,
  ...(job.completedAt === undefined ? {} : { completedAt: job.completedAt })
})
