/**
 * Creation-time KYC/KYB rules of the sandbox (spec, "Sandbox scenarios"): the last three
 * characters of an individual's `fullName` decide `kycStatus`; businesses always start with
 * `kybStatus` UNVERIFIED (their registration-number suffix acts later, on POST /verifications).
 */
export type KycStatus = "UNVERIFIED" | "PENDING" | "APPROVED" | "REJECTED" | "HOLD"
export type KybStatus = KycStatus

export const kycSuffixTable: ReadonlyArray<{ readonly suffix: string; readonly kycStatus: KycStatus }> = [
  { suffix: "001", kycStatus: "PENDING" },
  { suffix: "002", kycStatus: "REJECTED" },
  { suffix: "003", kycStatus: "UNVERIFIED" }
]

/** Any other suffix, including a missing `fullName`, is APPROVED. */
export const kycStatusAtCreation = (fullName: string | undefined): KycStatus => {
  const suffix = (fullName ?? "").slice(-3)
  return kycSuffixTable.find((r) => r.suffix === suffix)?.kycStatus ?? "APPROVED"
}

export const kybStatusAtCreation = (): KybStatus => "UNVERIFIED"

/**
 * What POST /verifications does with an individual, by the last three characters of `fullName`
 * (spec "Sandbox scenarios"): 001 reviews complete data (PENDING_MANUAL_REVIEW), 003 finds its
 * identity document of poor quality, any other suffix was already decided at creation (400).
 */
export type IndividualVerificationRule = "REVIEW" | "POOR_QUALITY" | "DECIDED"

export const individualVerificationRule = (fullName: string | undefined): IndividualVerificationRule => {
  const suffix = (fullName ?? "").slice(-3)
  return suffix === "001" ? "REVIEW" : suffix === "003" ? "POOR_QUALITY" : "DECIDED"
}

/**
 * What POST /verifications does with a business, by the last three characters of
 * `businessInfo.registrationNumber`: 001 and 003 validate its data (RESOLVE_ERRORS until
 * complete), 002 rejects at once, any other (a missing number included) approves at once.
 */
export type BusinessVerificationRule = "VALIDATE" | "REJECT" | "APPROVE"

export const businessVerificationRule = (registrationNumber: string | undefined): BusinessVerificationRule => {
  const suffix = (registrationNumber ?? "").slice(-3)
  return suffix === "001" || suffix === "003" ? "VALIDATE" : suffix === "002" ? "REJECT" : "APPROVE"
}

/** A beneficial owner's kycStatus once its business resolved terminally, by `personalInfo.lastName`'s suffix. */
export const ownerStatusOnResolution = (lastName: string): KycStatus => {
  const suffix = lastName.slice(-3)
  return suffix === "001" ? "PENDING" : suffix === "002" ? "REJECTED" : "APPROVED"
}

/** APPROVED and REJECTED are final: no verification or hosted flow changes them again. */
export const isTerminal = (status: KycStatus | undefined): boolean => status === "APPROVED" || status === "REJECTED"
