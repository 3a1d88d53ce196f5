import { Schema } from "effect"
import type { Address } from "../common.ts"
import type { BeneficialOwnerId, CustomerId } from "../ids.ts"
import type { KycStatus } from "../../sandbox/kyc.ts"

export const BeneficialOwnerRole = Schema.Literal("UBO", "DIRECTOR", "COMPANY_OFFICER", "CONTROL_PERSON", "TRUSTEE", "GENERAL_PARTNER")
export type BeneficialOwnerRole = typeof BeneficialOwnerRole.Type

/** The reference's `BeneficialOwnerPersonalInfo`; `identifier` is stored but never shown (like a customer's). */
export interface BeneficialOwnerPersonalInfo {
  readonly firstName: string
  readonly middleName?: string
  readonly lastName: string
  readonly birthDate: string
  readonly nationality: string
  readonly email?: string
  readonly phoneNumber?: string
  readonly address: Address
  readonly idType: "SSN" | "ITIN" | "EIN" | "NON_US_TAX_ID"
  readonly identifier: string
  readonly countryOfIssuance?: string
}

/** A beneficial owner of a business customer, as stored. */
export interface BeneficialOwnerRecord {
  readonly id: BeneficialOwnerId
  readonly customerId: CustomerId
  readonly roles: ReadonlyArray<BeneficialOwnerRole>
  readonly ownershipPercentage: number
  readonly personalInfo: BeneficialOwnerPersonalInfo
  /** UNVERIFIED until the business resolves terminally; then by `personalInfo.lastName`'s suffix. */
  readonly kycStatus: KycStatus
  readonly createdAt: string
  readonly updatedAt: string
}
