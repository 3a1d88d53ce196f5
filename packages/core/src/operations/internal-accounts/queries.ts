import { Effect, Schema } from "effect"
import { InternalAccounts } from "../../domain/collections.ts"
import { CurrencyCode, optional } from "../../domain/common.ts"
import { IdSchema } from "../../domain/ids.ts"
import { InternalAccountType, type InternalAccountRecord } from "../../domain/internal-accounts/internal-account.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { decodeInput } from "../../domain/field-errors.ts"
import { Store } from "../../ports/store.ts"
import { equal, listPage, pageParams } from "../common/listing.ts"

export const CustomerAccountsQuery = Schema.Struct({
  currency: optional(CurrencyCode),
  customerId: optional(IdSchema("Customer")),
  type: optional(InternalAccountType),
  ...pageParams
})

export const PlatformAccountsQuery = Schema.Struct({
  currency: optional(CurrencyCode),
  type: optional(InternalAccountType)
})

const matches = (q: { readonly currency?: string; readonly type?: string }) => (a: InternalAccountRecord) =>
  (q.type === undefined || q.type === a.type) && (q.currency === undefined || q.currency === a.balance.currency.code)

/** GET /customers/internal-accounts: accounts of the platform's customers, paginated. */
export const listCustomerInternalAccounts = (platform: PlatformRecord, query: unknown) =>
  listPage({
    collection: InternalAccounts,
    scope: platform.id,
    querySchema: CustomerAccountsQuery,
    query,
    where: (q) => [equal("ownerKind", "customer"), equal("customerId", q.customerId), equal("type", q.type), equal("currency", q.currency)],
    view: (a) => a
  })

/** GET /platform/internal-accounts: the platform's own accounts, `{data}` without paging. */
export const listPlatformInternalAccounts = (platform: PlatformRecord, query: unknown) =>
  Effect.gen(function* () {
    const q = yield* decodeInput(PlatformAccountsQuery)(query)
    const store = yield* Store
    const accounts = yield* store.findBy(InternalAccounts, platform.id, "customerId", "platform")
    return { data: accounts.filter(matches(q)) }
  })
