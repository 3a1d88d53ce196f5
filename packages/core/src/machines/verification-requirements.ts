import type { BeneficialOwnerRecord } from "../domain/beneficial-owners/beneficial-owner.ts"
import type { CustomerRecord } from "../domain/customers/customer.ts"
import { type DocumentRecord, type DocumentType, identityDocumentTypes } from "../domain/documents/document.ts"
import type { VerificationError, VerificationErrorType } from "../domain/verifications/verification.ts"

/**
 * What a submission must hold before it can pass (spec "Sandbox scenarios"; DECISIONS #136,
 * #137): each missing item is exactly one error entry, in a fixed order, on the resource it
 * concerns. Field paths are relative to that resource (`address`, `businessInfo.taxId`,
 * `personalInfo.birthDate`).
 */

const missingField = (resourceId: string, field: string, label: string): VerificationError => ({
  resourceId,
  type: "MISSING_FIELD",
  field,
  reason: `${label} is required`
})

const missingDocument = (resourceId: string, type: VerificationErrorType, accepted: ReadonlyArray<DocumentType>, label: string): VerificationError => ({
  resourceId,
  type,
  acceptedDocumentTypes: accepted,
  reason: `${label} is required: upload one of ${accepted.join(", ")}`
})

const absent = (v: unknown): boolean => v === undefined || v === null || v === ""

/** The individual's fields a submission needs, in the order they are reported. */
export const individualFields: ReadonlyArray<readonly [keyof CustomerRecord & string, string]> = [
  ["fullName", "Full name"],
  ["birthDate", "Date of birth"],
  ["nationality", "Nationality"],
  ["idType", "Identification type"],
  ["identifier", "Identification number"],
  ["address", "Address"]
]

/** The identity documents the individual holds itself, oldest first. */
export const identityDocuments = (customerId: string, documents: ReadonlyArray<DocumentRecord>): ReadonlyArray<DocumentRecord> =>
  documents.filter((d) => d.documentHolder === customerId && identityDocumentTypes.includes(d.documentType))

/** Everything an individual's submission lacks; empty when its data is complete. */
export const individualGaps = (customer: CustomerRecord, documents: ReadonlyArray<DocumentRecord>): ReadonlyArray<VerificationError> => [
  ...individualFields.filter(([f]) => absent(customer[f])).map(([f, label]) => missingField(customer.id, f, label)),
  ...(identityDocuments(customer.id, documents).length > 0
    ? []
    : [missingDocument(customer.id, "MISSING_IDENTITY_DOCUMENT", identityDocumentTypes, "An identity document")])
]

/**
 * The documents a business must hold itself, each requirement met by any one of its types (the
 * reference's table of accepted types; PROOF_OF_ADDRESS, used in its example, counts too).
 */
export const businessDocumentRequirements: ReadonlyArray<{
  readonly type: VerificationErrorType
  readonly accepted: ReadonlyArray<DocumentType>
  readonly label: string
}> = [
  {
    type: "MISSING_LEGAL_PRESENCE_DOCUMENT",
    accepted: ["CERTIFICATE_OF_INCORPORATION", "ARTICLES_OF_INCORPORATION", "ARTICLES_OF_ASSOCIATION", "STATE_REGISTRY_EXCERPT"],
    label: "A company formation document"
  },
  {
    type: "MISSING_OWNERSHIP_STRUCTURE_DOCUMENT",
    accepted: ["SHAREHOLDER_REGISTER", "TRUST_AGREEMENT", "PARTNERSHIP_AGREEMENT"],
    label: "A proof of the ownership structure"
  },
  {
    type: "MISSING_PROOF_OF_ADDRESS_DOCUMENT",
    accepted: ["PROOF_OF_ADDRESS", "UTILITY_BILL", "RENT_OR_LEASE_AGREEMENT", "ELECTRICITY_BILL", "BANK_STATEMENT", "TAX_RETURN"],
    label: "A proof of the business address"
  }
]

const businessInfoFields: ReadonlyArray<readonly [string, string]> = [
  ["legalName", "Legal name"],
  ["country", "Country of incorporation"],
  ["taxId", "Tax identification number"],
  ["incorporatedOn", "Date of incorporation"]
]

export const ownerFields: ReadonlyArray<readonly [string, string]> = [
  ["firstName", "First name"],
  ["lastName", "Last name"],
  ["birthDate", "Date of birth"],
  ["nationality", "Nationality"],
  ["address", "Address"],
  ["idType", "Identification type"],
  ["identifier", "Identification number"]
]

/** A beneficial owner's missing personal fields, on the owner. */
export const ownerGaps = (owner: BeneficialOwnerRecord): ReadonlyArray<VerificationError> =>
  ownerFields
    .filter(([f]) => absent((owner.personalInfo as unknown as Record<string, unknown>)[f]))
    .map(([f, label]) => missingField(owner.id, `personalInfo.${f}`, `${label} of the beneficial owner`))

/** Everything a business's submission lacks: its fields, its documents, its owners and theirs. */
export const businessGaps = (
  customer: CustomerRecord,
  documents: ReadonlyArray<DocumentRecord>,
  owners: ReadonlyArray<BeneficialOwnerRecord>
): ReadonlyArray<VerificationError> => {
  const info = (customer.businessInfo ?? {}) as Record<string, unknown>
  const held = new Set(documents.filter((d) => d.documentHolder === customer.id).map((d) => d.documentType))
  return [
    ...businessInfoFields.filter(([f]) => absent(info[f])).map(([f, label]) => missingField(customer.id, `businessInfo.${f}`, label)),
    ...(absent(customer.address) ? [missingField(customer.id, "address", "The business address")] : []),
    ...businessDocumentRequirements
      .filter((r) => !r.accepted.some((t) => held.has(t)))
      .map((r) => missingDocument(customer.id, r.type, r.accepted, r.label)),
    ...(owners.length === 0
      ? [{ resourceId: customer.id, type: "MISSING_BENEFICIAL_OWNER" as const, reason: "At least one beneficial owner is required" }]
      : owners.flatMap(ownerGaps))
  ]
}
