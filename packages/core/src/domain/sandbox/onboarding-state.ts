import { Schema } from "effect"
import { Address, CalendarDate, CountryCode, DateTimeString, NonEmpty, optional } from "../common.ts"
import { BeneficialOwnerRole } from "../beneficial-owners/beneficial-owner.ts"
import { IdType } from "../customers/customer.ts"
import { DocumentSide, DocumentType } from "../documents/document.ts"
import { BulkImportStatus } from "../customers/bulk-import.ts"
import { IdSchema } from "../ids.ts"
import { VerificationErrorType, VerificationStatus } from "../verifications/verification.ts"
import { lazily } from "./lazily.ts"

/**
 * What an imported onboarding record must satisfy (README, "Sandbox state"): like
 * state-records.ts, the fields indexes, views and later operations read; other fields are kept.
 */
export const onboardingStates = lazily(() => {
  const stamps = { createdAt: DateTimeString, updatedAt: DateTimeString }
  const Status = Schema.Literal("UNVERIFIED", "PENDING", "APPROVED", "REJECTED", "HOLD")
  const Hex64 = Schema.String.pipe(Schema.pattern(/^[0-9a-f]{64}$/, { message: () => "must be 32 bytes of lower-case hex" }))

  const DocumentState = Schema.Struct({
    id: IdSchema("Document"),
    documentHolder: Schema.Union(IdSchema("Customer"), IdSchema("BeneficialOwner")),
    customerId: IdSchema("Customer"),
    documentType: DocumentType,
    country: CountryCode,
    side: optional(DocumentSide),
    documentNumber: optional(Schema.String),
    issuingAuthority: optional(Schema.String),
    fileName: NonEmpty(255),
    fileType: Schema.Literal("image/jpeg", "image/png", "application/pdf"),
    fileSize: Schema.Number.pipe(Schema.int(), Schema.positive()),
    fileSha256: Hex64,
    submittedAt: optional(DateTimeString),
    ...stamps
  })

  const DocumentFileState = Schema.Struct({
    id: IdSchema("Document"),
    base64: Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9+/]*={0,2}$/, { message: () => "must be base64" }))
  })

  const BeneficialOwnerState = Schema.Struct({
    id: IdSchema("BeneficialOwner"),
    customerId: IdSchema("Customer"),
    roles: Schema.Array(BeneficialOwnerRole),
    ownershipPercentage: Schema.Number.pipe(Schema.int(), Schema.between(0, 100)),
    personalInfo: Schema.Struct({
      firstName: NonEmpty(250),
      lastName: NonEmpty(250),
      birthDate: CalendarDate,
      nationality: CountryCode,
      address: Address,
      idType: IdType,
      identifier: Schema.String
    }),
    kycStatus: Status,
    ...stamps
  })

  const VerificationState = Schema.Struct({
    id: IdSchema("Verification"),
    customerId: IdSchema("Customer"),
    verificationStatus: VerificationStatus,
    errors: Schema.Array(Schema.Struct({ resourceId: Schema.String, type: VerificationErrorType, reason: Schema.String })),
    ...stamps
  })

  const KycLinkState = Schema.Struct({
    id: Schema.String.pipe(Schema.pattern(/^[0-9a-f]{32}$/, { message: () => "must be 16 bytes of lower-case hex" })),
    customerId: IdSchema("Customer"),
    kycUrl: Schema.String,
    redirectUri: optional(Schema.String),
    expiresAt: DateTimeString,
    usedAt: optional(DateTimeString),
    ...stamps
  })

  const Count = Schema.Number.pipe(Schema.int(), Schema.nonNegative())
  const BulkImportJobState = Schema.Struct({
    id: IdSchema("Job"),
    status: BulkImportStatus,
    progress: Schema.Struct({ total: Count, processed: Count, successful: Count, failed: Count }),
    errors: Schema.Array(Schema.Struct({ correlationId: Schema.String, code: Schema.String, message: Schema.String })),
    completedAt: optional(DateTimeString),
    ...stamps
  })
  return { DocumentState, DocumentFileState, BeneficialOwnerState, VerificationState, KycLinkState, BulkImportJobState }
})
