import { Schema } from "effect"
import { Customers } from "../../domain/collections.ts"
import { CountryCode, CurrencyCode, DateTimeString, optional } from "../../domain/common.ts"
import { CustomerType, customerView } from "../../domain/customers/customer.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { listPage, optionalFilter, pageParams } from "../common/listing.ts"

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

const after = (bound: string | undefined, t: string) => bound === undefined || Date.parse(t) > Date.parse(bound)
const before = (bound: string | undefined, t: string) => bound === undefined || Date.parse(t) < Date.parse(bound)

/** GET /customers: the platform's customers in creation order, filtered and paginated. */
export const listCustomers = (platform: PlatformRecord, query: unknown) =>
  listPage({
    collection: Customers,
    scope: platform.id,
    querySchema: CustomerListQuery,
    query,
    index: (q) => (q.platformCustomerId === undefined ? undefined : { name: "platformCustomerId", value: q.platformCustomerId }),
    filter: (q) => (c) =>
      (q.isIncludingDeleted === true || !c.isDeleted) &&
      optionalFilter(q.customerType, c.customerType) &&
      optionalFilter(q.region, c.region) &&
      (q.umaAddress === undefined || q.umaAddress.toLowerCase() === c.umaAddress.toLowerCase()) &&
      (q.currency === undefined || (c.currencies ?? []).includes(q.currency)) &&
      after(q.createdAfter, c.createdAt) &&
      before(q.createdBefore, c.createdAt) &&
      after(q.updatedAfter, c.updatedAt) &&
      before(q.updatedBefore, c.updatedAt),
    view: customerView
  })
