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
