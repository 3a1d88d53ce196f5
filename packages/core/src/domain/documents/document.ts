import { Schema } from "effect"
import type { BeneficialOwnerId, CustomerId, DocumentId } from "../ids.ts"

/** The reference's 26 document types. */
export const DocumentType = Schema.Literal(
  "PASSPORT",
  "DRIVERS_LICENSE",
  "NATIONAL_ID",
  "PROOF_OF_ADDRESS",
  "BANK_STATEMENT",
  "TAX_RETURN",
  "CERTIFICATE_OF_INCORPORATION",
  "ARTICLES_OF_INCORPORATION",
  "ARTICLES_OF_ASSOCIATION",
  "STATE_REGISTRY_EXCERPT",
  "GOOD_STANDING_CERTIFICATE",
  "INFORMATION_STATEMENT",
  "INCUMBENCY_CERTIFICATE",
  "BUSINESS_LICENSE",
  "SHAREHOLDER_REGISTER",
  "POWER_OF_ATTORNEY",
  "UTILITY_BILL",
  "ELECTRICITY_BILL",
  "RENT_OR_LEASE_AGREEMENT",
  "DIRECTOR_REGISTRY",
  "TRUST_AGREEMENT",
  "STATE_COMPANY_REGISTRY",
  "PARTNERSHIP_CONTROL_AGREEMENT",
  "PARTNERSHIP_AGREEMENT",
  "SELFIE",
  "OTHER"
)
export type DocumentType = typeof DocumentType.Type

/** What satisfies MISSING_IDENTITY_DOCUMENT (spec, "Error shapes"). */
export const identityDocumentTypes: ReadonlyArray<DocumentType> = ["PASSPORT", "DRIVERS_LICENSE", "NATIONAL_ID"]

export const DocumentSide = Schema.Literal("FRONT", "BACK")

/** The file types the sandbox accepts, as detected from the bytes (never from a name or header). */
export type DocumentFileType = "image/jpeg" | "image/png" | "application/pdf"

/**
 * A document as stored: the reference's `Document` fields (the view answers exactly those), plus
 * what the engine needs and never shows. The bytes live apart, in `DocumentFiles`, so listing
 * documents never loads files.
 */
export interface DocumentRecord {
  readonly id: DocumentId
  /** A Customer or a BeneficialOwner id. */
  readonly documentHolder: CustomerId | BeneficialOwnerId
  /** The customer the holder belongs to (the holder itself, or the business of a beneficial owner). */
  readonly customerId: CustomerId
  readonly documentType: DocumentType
  readonly country: string
  readonly side?: "FRONT" | "BACK"
  readonly documentNumber?: string
  readonly issuingAuthority?: string
  readonly fileName: string
  readonly fileType: DocumentFileType
  readonly fileSize: number
  /** SHA-256 of the bytes, hex: lets a reader check the stored file without showing it. */
  readonly fileSha256: string
  /** Set when a verification took this document in: from then on it cannot be deleted (409). */
  readonly submittedAt?: string
  readonly createdAt: string
  readonly updatedAt: string
}

/** A document's bytes, base64, keyed by the document's id. */
export interface DocumentFileRecord {
  readonly id: DocumentId
  readonly base64: string
}

/** The reference's `Document`, exactly: what the engine keeps besides (holder's customer, file facts) stays inside. */
export interface DocumentView {
  readonly id: string
  readonly documentHolder: string
  readonly documentType: DocumentType
  readonly side?: "FRONT" | "BACK"
  readonly country: string
  readonly documentNumber?: string
  readonly issuingAuthority?: string
  readonly fileName: string
  readonly createdAt: string
  readonly updatedAt: string
}

export const documentView = (d: DocumentRecord): DocumentView => ({
  id: d.id,
  documentHolder: d.documentHolder,
  documentType: d.documentType,
  ...(d.side === undefined ? {} : { side: d.side }),
  country: d.country,
  ...(d.documentNumber === undefined ? {} : { documentNumber: d.documentNumber }),
  ...(d.issuingAuthority === undefined ? {} : { issuingAuthority: d.issuingAuthority }),
  fileName: d.fileName,
  createdAt: d.createdAt,
  updatedAt: d.updatedAt
})
