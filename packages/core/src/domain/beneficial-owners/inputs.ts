import { Schema } from "effect"
import { Address, CalendarDate, CountryCode, Email, NonEmpty, optional, PhoneNumber } from "../common.ts"
import { IdType } from "../customers/customer.ts"
import { BeneficialOwnerRole, type BeneficialOwnerRecord } from "./beneficial-owner.ts"

/**
 * The reference's `BeneficialOwnerCreateRequest` and `BeneficialOwnerUpdateRequest`. The
 * identifier is any non-empty string here (the reference gives no format for owners, unlike a
 * customer's SSN/ITIN); it is kept and never shown.
 */
const personalInfoFields = {
  firstName: NonEmpty(250),
  middleName: optional(NonEmpty(250)),
  lastName: NonEmpty(250),
  birthDate: CalendarDate,
  nationality: CountryCode,
  email: optional(Email),
  phoneNumber: optional(PhoneNumber),
  address: Address,
  idType: IdType,
  identifier: NonEmpty(64),
  countryOfIssuance: optional(CountryCode)
}

export const BeneficialOwnerPersonalInfo = Schema.Struct(personalInfoFields)
export const BeneficialOwnerPersonalInfoUpdate = Schema.partialWith(BeneficialOwnerPersonalInfo, { exact: true })

const Roles = Schema.Array(BeneficialOwnerRole)
const Percentage = Schema.Int.pipe(Schema.between(0, 100, { message: () => "must be an integer from 0 to 100" }))

export const BeneficialOwnerCreate = Schema.Struct({
  customerId: NonEmpty(128),
  roles: Roles,
  ownershipPercentage: Percentage,
  personalInfo: BeneficialOwnerPersonalInfo
})
export type BeneficialOwnerCreate = typeof BeneficialOwnerCreate.Type

export const BeneficialOwnerUpdate = Schema.Struct({
  roles: optional(Roles),
  ownershipPercentage: optional(Percentage),
  personalInfo: optional(BeneficialOwnerPersonalInfoUpdate)
})
export type BeneficialOwnerUpdate = typeof BeneficialOwnerUpdate.Type

/**
 * The reference's `BeneficialOwner`. Its schema requires `personalInfo.identifier`, yet the value
 * is write-only: the view shows it masked, every character but the last four (none of a short one) replaced by `*`
 * (DECISIONS #141), so the shape holds and the number never leaves.
 */
export const maskIdentifier = (identifier: string): string => {
  // A short identifier would be shown whole: then nothing of it is kept.
  const shown = identifier.length > 8 ? 4 : 0
  return identifier.replace(/[^-\s]/g, (ch, i: number) => (i < identifier.length - shown ? "*" : ch))
}

export const beneficialOwnerView = (o: BeneficialOwnerRecord) => ({
  ...o,
  personalInfo: { ...o.personalInfo, identifier: maskIdentifier(o.personalInfo.identifier) }
})
