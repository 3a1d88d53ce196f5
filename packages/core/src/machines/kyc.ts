import { type KybStatus, type KycStatus, kybStatusAtCreation, kycStatusAtCreation } from "../sandbox/kyc.ts"

/**
 * A customer's verification status at creation (spec "Sandbox scenarios"): an individual's
 * `kycStatus` is read from the sandbox suffix table of its `fullName`; a business starts with
 * `kybStatus` UNVERIFIED. Later changes (POST /verifications) are not modelled here yet.
 */
export type CustomerType = "INDIVIDUAL" | "BUSINESS"

export type StatusAtCreation = { readonly kycStatus: KycStatus } | { readonly kybStatus: KybStatus }

export const statusAtCreation = (customerType: CustomerType, fullName: string | undefined): StatusAtCreation =>
  customerType === "INDIVIDUAL" ? { kycStatus: kycStatusAtCreation(fullName) } : { kybStatus: kybStatusAtCreation() }
