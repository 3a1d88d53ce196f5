import { Schema } from "effect"
import type { CustomerId, VerificationId } from "../ids.ts"
import type { DocumentType } from "../documents/document.ts"

export const VerificationStatus = Schema.Literal("RESOLVE_ERRORS", "PENDING_MANUAL_REVIEW", "IN_PROGRESS", "APPROVED", "REJECTED", "READY_FOR_VERIFICATION")
export type VerificationStatus = typeof VerificationStatus.Type

/** The reference's `VerificationErrorType`. */
export const VerificationErrorType = Schema.Literal(
  "MISSING_FIELD",
  "INVALID_FIELD",
  "MISSING_LEGAL_PRESENCE_DOCUMENT",
  "MISSING_CONTROL_STRUCTURE_DOCUMENT",
  "MISSING_OWNERSHIP_STRUCTURE_DOCUMENT",
  "MISSING_PROOF_OF_ADDRESS_DOCUMENT",
  "MISSING_IDENTITY_DOCUMENT",
  "INVALID_DOCUMENT",
  "EXPIRED_DOCUMENT",
  "POOR_QUALITY_DOCUMENT",
  "SUSPECTED_FRAUD_DOCUMENT",
  "WRONG_DOCUMENT_TYPE",
  "INCOMPLETE_DOCUMENT",
  "UNREADABLE_DOCUMENT",
  "DOCUMENT_VERIFICATION_FAILED",
  "APPLICANT_SANCTIONED",
  "APPLICANT_FRAUD",
  "APPLICANT_CRIMINAL_RECORD",
  "APPLICANT_REJECTED",
  "MISSING_BENEFICIAL_OWNER",
  "MISSING_CONTROL_PERSON",
  "MISSING_GOOD_STANDING_DOCUMENT"
)
export type VerificationErrorType = typeof VerificationErrorType.Type

/** One issue of a verification, on the resource it concerns (a Customer, BeneficialOwner or Document id). */
export interface VerificationError {
  readonly resourceId: string
  readonly type: VerificationErrorType
  /** Dot path, for MISSING_FIELD and INVALID_FIELD. */
  readonly field?: string
  /** For the MISSING_*_DOCUMENT, INVALID_DOCUMENT and EXPIRED_DOCUMENT types. */
  readonly acceptedDocumentTypes?: ReadonlyArray<DocumentType>
  readonly reason: string
}

/** A verification as stored; its view is exactly the reference's `Verification`. */
export interface VerificationRecord {
  readonly id: VerificationId
  readonly customerId: CustomerId
  readonly verificationStatus: VerificationStatus
  readonly errors: ReadonlyArray<VerificationError>
  readonly createdAt: string
  readonly updatedAt: string
}

/**
 * A hosted KYC/KYB link (POST /customers/{id}/kyc-link): single-use and expiring. Its id is the
 * random token the link's URL ends with, which the sandbox control names to complete the flow.
 */
export interface KycLinkRecord {
  readonly id: string
  readonly customerId: CustomerId
  readonly kycUrl: string
  readonly redirectUri?: string
  readonly expiresAt: string
  /** Set when the hosted flow was completed: the link cannot be used again. */
  readonly usedAt?: string
  readonly createdAt: string
  readonly updatedAt: string
}

/** The reference's `KycLinkResponse`. */
export const kycLinkView = (l: KycLinkRecord, provider: string) => ({
  kycUrl: l.kycUrl,
  expiresAt: l.expiresAt,
  provider,
  token: l.id
})
