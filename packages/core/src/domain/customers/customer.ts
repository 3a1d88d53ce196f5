import { Schema } from "effect"
import {
  Address,
  CalendarDate,
  CountryCode,
  CurrencyCode,
  DateTimeString,
  Email,
  NonEmpty,
  optional,
  PhoneNumber
} from "../common.ts"
import type { KybStatus, KycStatus } from "../../sandbox/kyc.ts"
import type { ContactCodes, ContactVerification } from "./contact-verification.ts"

export const CustomerType = Schema.Literal("INDIVIDUAL", "BUSINESS")
export type CustomerType = typeof CustomerType.Type

export const IdType = Schema.Literal("SSN", "ITIN", "EIN", "NON_US_TAX_ID")

export const UmaAddress = Schema.String.pipe(
  Schema.maxLength(128),
  Schema.pattern(/^\$[A-Za-z0-9._+-]{1,64}@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/, {
    message: () => "must be a UMA address such as $alice@example.com",
    jsonSchema: { pattern: "^\\$[A-Za-z0-9._+-]{1,64}@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}$" }
  })
)

export const EndUserTermsConsent = Schema.Struct({
  acceptedAt: DateTimeString,
  ipAddress: NonEmpty(45),
  termsVersion: NonEmpty(32),
  acceptanceMethod: Schema.Literal("CHECKBOX", "CLICK_TO_ACCEPT")
})
/**
 * End User Terms versions this service knows (others: END_USER_TERMS_VERSION_NOT_FOUND), oldest
 * first: the last is the one customers are shown (`GET /customers/end-user-terms`).
 */
export const supportedTermsVersions: readonly [string, ...Array<string>] = ["V1"]

const commonFields = {
  platformCustomerId: optional(NonEmpty(128)),
  region: optional(CountryCode),
  currencies: optional(Schema.Array(CurrencyCode).pipe(Schema.maxItems(20))),
  email: optional(Email),
  phoneNumber: optional(PhoneNumber),
  umaAddress: optional(UmaAddress),
  endUserTermsConsent: optional(EndUserTermsConsent)
}

const individualFields = {
  fullName: optional(NonEmpty(250)),
  birthDate: optional(CalendarDate),
  nationality: optional(CountryCode),
  address: optional(Address),
  idType: optional(IdType),
  // SSN ###-##-#### or ITIN (9##-##-####): the only identifiers the reference accepts.
  identifier: optional(
    Schema.String.pipe(
      Schema.pattern(/^\d{3}-\d{2}-\d{4}$/, {
        message: () => "must be an SSN or ITIN in ###-##-#### format",
        jsonSchema: { format: "us-ssn", pattern: "^\\d{3}-\\d{2}-\\d{4}$" }
      })
    )
  ),
  countryOfIssuance: optional(Schema.Literal("US"))
}

export const EntityType = Schema.Literal(
  "SOLE_PROPRIETORSHIP", "PARTNERSHIP", "LLC", "CORPORATION", "S_CORPORATION", "NON_PROFIT",
  "PUBLICLY_LISTED_COMPANY", "TRUST", "PRIVATE_FOUNDATION", "CHARITY", "OTHER"
)

const businessInfoFields = {
  legalName: NonEmpty(250),
  doingBusinessAs: optional(NonEmpty(250)),
  country: CountryCode,
  registrationNumber: optional(NonEmpty(64)),
  taxId: NonEmpty(64),
  incorporatedOn: CalendarDate,
  entityType: optional(EntityType),
  countriesOfOperation: optional(Schema.Array(CountryCode).pipe(Schema.maxItems(250)))
}
export const BusinessInfo = Schema.Struct(businessInfoFields)
export const BusinessInfoUpdate = Schema.partialWith(BusinessInfo, { exact: true })

export const IndividualCreate = Schema.Struct({
  customerType: Schema.Literal("INDIVIDUAL"),
  ...commonFields,
  ...individualFields
})
export const BusinessCreate = Schema.Struct({
  customerType: Schema.Literal("BUSINESS"),
  ...commonFields,
  address: optional(Address),
  businessInfo: BusinessInfo
})
export type IndividualCreate = typeof IndividualCreate.Type
export type BusinessCreate = typeof BusinessCreate.Type

/** PATCH fields that need no wallet signature (email of a wallet customer is the exception). */
const updateCommon = {
  currencies: commonFields.currencies,
  email: commonFields.email,
  phoneNumber: commonFields.phoneNumber,
  umaAddress: commonFields.umaAddress,
  endUserTermsConsent: commonFields.endUserTermsConsent
}
export const IndividualUpdate = Schema.Struct({
  customerType: Schema.Literal("INDIVIDUAL"),
  ...updateCommon,
  ...individualFields
})
export const BusinessUpdate = Schema.Struct({
  customerType: Schema.Literal("BUSINESS"),
  ...updateCommon,
  address: optional(Address),
  businessInfo: optional(BusinessInfoUpdate)
})
export type IndividualUpdate = typeof IndividualUpdate.Type
export type BusinessUpdate = typeof BusinessUpdate.Type

export const CustomerTypeField = Schema.Struct({ customerType: CustomerType })

/** What the store keeps. `identifier` is write-only: kept, never returned. */
export interface CustomerRecord {
  readonly id: string
  readonly platformCustomerId: string
  readonly customerType: CustomerType
  readonly umaAddress: string
  readonly region?: string
  readonly currencies?: ReadonlyArray<string>
  readonly email?: string
  readonly phoneNumber?: string
  readonly endUserTermsConsent?: typeof EndUserTermsConsent.Type
  readonly createdAt: string
  readonly updatedAt: string
  readonly isDeleted: boolean
  readonly kycStatus?: KycStatus
  readonly fullName?: string
  readonly birthDate?: string
  readonly nationality?: string
  readonly address?: Address
  readonly idType?: typeof IdType.Type
  readonly identifier?: string
  readonly countryOfIssuance?: string
  readonly kybStatus?: KybStatus
  readonly businessInfo?: typeof BusinessInfoUpdate.Type
  /** Present only where the customer's jurisdiction requires contact verification. */
  readonly contactVerification?: ContactVerification
  /** The codes sent and not yet confirmed: kept, never returned. */
  readonly contactCodes?: ContactCodes
}

export type CustomerView = Omit<CustomerRecord, "identifier" | "contactCodes">

export const customerView = (c: CustomerRecord): CustomerView => {
  if (c.identifier === undefined && c.contactCodes === undefined) return c
  const { identifier: _written, contactCodes: _codes, ...rest } = c
  return rest
}
