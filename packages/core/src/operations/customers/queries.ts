import { Effect, Schema } from "effect"
import { Customers } from "../../domain/collections.ts"
import { CountryCode, CurrencyCode, DateTimeString, optional } from "../../domain/common.ts"
import { CustomerType, customerView, supportedTermsVersions } from "../../domain/customers/customer.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { END_USER_TERMS_URL_BASE } from "../../sandbox/literals.ts"
import { after, before, equal, listPage, pageParams } from "../common/listing.ts"

export const CustomerListQuery = Schema.Struct({
  platformCustomerId: optional(Schema.String),
  customerType: optional(CustomerType),
  createdAfter: optional(DateTimeString),
  createdBefore: optional(DateTimeString),
  updatedAfter: optional(DateTimeString),
  updatedBefore: optional(DateTimeString),
  region: optional(CountryCode),
  currency: optional(CurrencyCode),
  umaAddress: optional(Schema.String),
  isIncludingDeleted: optional(Schema.BooleanFromString),
  ...pageParams
})

/** GET /customers: the platform's customers in creation order, filtered and paginated. */
export const listCustomers = (platform: PlatformRecord, query: unknown) =>
  listPage({
    collection: Customers,
    scope: platform.id,
    querySchema: CustomerListQuery,
    query,
    where: (q) => [
      q.isIncludingDeleted === true ? undefined : equal("active", "yes"),
      equal("platformCustomerId", q.platformCustomerId),
      equal("customerType", q.customerType),
      equal("region", q.region),
      equal("anyUmaAddress", q.umaAddress?.toLowerCase()),
      equal("currency", q.currency),
      after("createdAt", q.createdAfter),
      before("createdAt", q.createdBefore),
      after("updatedAt", q.updatedAfter),
      before("updatedAt", q.updatedBefore)
    ],
    view: customerView
  })

/**
 * GET /customers/end-user-terms: the current End User Terms, whose version a customer's
 * `endUserTermsConsent.termsVersion` names. The same for every platform.
 */
export const getEndUserTerms = () => {
  const version = supportedTermsVersions[supportedTermsVersions.length - 1]!
  return Effect.succeed({ version, url: `${END_USER_TERMS_URL_BASE}/${version}` })
}
