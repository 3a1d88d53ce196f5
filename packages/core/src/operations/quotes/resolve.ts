import { Effect, Option } from "effect"
import { ExternalAccounts, InternalAccounts } from "../../domain/collections.ts"
import type { ExternalAccountRecord } from "../../domain/external-accounts/record.ts"
import type { FieldError } from "../../domain/field-errors.ts"
import { isId } from "../../domain/ids.ts"
import type { InternalAccountRecord } from "../../domain/internal-accounts/internal-account.ts"
import { referenceNotFound } from "../../domain/not-found.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import type { QuoteDestination, QuoteSource } from "../../domain/quotes/request.ts"
import { Store } from "../../ports/store.ts"
import { loadCustomer } from "../customers/customers.ts"

/** An `accountId` of a quote, resolved: which kind of account it names, and the account. */
export type ResolvedAccount =
  | { readonly kind: "INTERNAL"; readonly account: InternalAccountRecord }
  | { readonly kind: "EXTERNAL"; readonly account: ExternalAccountRecord }

export const mustBeAccountId = (field: string): FieldError => ({ field, message: "must be an InternalAccount or ExternalAccount id" })

/** Loads the account an id names (404 REFERENCE_NOT_FOUND when this platform has none). */
export const resolveAccount = (platform: PlatformRecord, id: string) =>
  Effect.gen(function* () {
    const store = yield* Store
    if (isId("InternalAccount", id)) {
      const found = yield* store.get(InternalAccounts, platform.id, id)
      if (Option.isNone(found)) return yield* referenceNotFound("InternalAccount", id)
      return { kind: "INTERNAL", account: found.value } as ResolvedAccount
    }
    const found = isId("ExternalAccount", id) ? yield* store.get(ExternalAccounts, platform.id, id) : Option.none()
    if (Option.isNone(found)) return yield* referenceNotFound("ExternalAccount", id)
    return { kind: "EXTERNAL", account: found.value } as ResolvedAccount
  })

/** Ids that name neither kind of account, as field errors (checked with the body, before any lookup). */
export const accountIdProblems = (source: QuoteSource, destination: QuoteDestination): ReadonlyArray<FieldError> => [
  ...(source.sourceType === "ACCOUNT" && !isId("InternalAccount", source.accountId) && !isId("ExternalAccount", source.accountId) ? [mustBeAccountId("source.accountId")] : []),
  ...(destination.destinationType === "ACCOUNT" && !isId("InternalAccount", destination.accountId) && !isId("ExternalAccount", destination.accountId)
    ? [mustBeAccountId("destination.accountId")]
    : [])
]

/** The customer a quote moves money for: the one named, or the source account's owner (absent: the platform). */
export const sendingCustomer = (platform: PlatformRecord, named: string | undefined, owner: string | undefined) =>
  named === undefined ? Effect.succeed(owner) : Effect.as(loadCustomer(platform, named), named)

export const currencyOfAccount = (r: ResolvedAccount): string => (r.kind === "INTERNAL" ? r.account.balance.currency.code : r.account.currency)
