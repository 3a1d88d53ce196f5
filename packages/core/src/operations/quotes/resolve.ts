import { Effect, Option } from "effect"
import { Customers, ExternalAccounts, InternalAccounts } from "../../domain/collections.ts"
import type { ExternalAccountRecord } from "../../domain/external-accounts/record.ts"
import { type FieldError, invalidInput } from "../../domain/field-errors.ts"
import { isId } from "../../domain/ids.ts"
import type { InternalAccountRecord } from "../../domain/internal-accounts/internal-account.ts"
import { referenceNotFound } from "../../domain/not-found.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import type { QuoteDestination, QuoteSource } from "../../domain/quotes/request.ts"
import { Store } from "../../ports/store.ts"
import { loadCustomer } from "../customers/customers.ts"
import { InvalidCurrency, SelfPayment } from "../../domain/errors.ts"
import type { SandboxUmaOutcome } from "../../sandbox/uma-receivers.ts"
import { findLookup } from "../receivers/lookups.ts"

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

/** Paying one's own UMA address is SELF_PAYMENT (#193). */
const notSelf = (platform: PlatformRecord, umaAddress: string, customerId: string | undefined) =>
  Effect.gen(function* () {
    if (customerId === undefined) return
    const sender = yield* (yield* Store).get(Customers, platform.id, customerId)
    if (Option.isSome(sender) && sender.value.umaAddress.toLowerCase() === umaAddress.toLowerCase())
      return yield* new SelfPayment({ message: "The destination is the sender's own UMA address", details: { umaAddress } })
  })

/**
 * A UMA destination through the lookup its `lookupId` names (DECISIONS #178, #194): the lookup
 * must be of this platform and of this address (400 on `lookupId` otherwise: the reference
 * declares no 404 for `POST /quotes`), and the currency one the receiver accepts (default: its
 * first). Answers the receiving currency, for a sandbox receiver what paying it does, and for a
 * customer of this platform who it is (it is credited when the quote executes).
 */
export const resolveUmaDestination = (
  platform: PlatformRecord,
  lookupId: string,
  destination: { readonly umaAddress: string; readonly currency?: string },
  customerId: string | undefined
) =>
  Effect.gen(function* () {
    yield* notSelf(platform, destination.umaAddress, customerId)
    const lookup = yield* Effect.catchTag(findLookup(platform.id, lookupId), "LOOKUP_REQUEST_NOT_FOUND", () =>
      Effect.fail(invalidInput([{ field: "lookupId", message: "names no receiver lookup of this platform (GET /receiver/uma/{address} answers one)" }]))
    )
    if (lookup.receiverUmaAddress?.toLowerCase() !== destination.umaAddress.toLowerCase())
      return yield* invalidInput([{ field: "lookupId", message: "is the lookup of another receiver than destination.umaAddress" }])
    if (lookup.receiver.type === "CUSTOMER" && lookup.receiver.customerId === customerId)
      return yield* new SelfPayment({ message: "The destination is the sender's own UMA address", details: { umaAddress: destination.umaAddress } })
    const currency = destination.currency ?? lookup.supportedCurrencies[0]
    if (currency === undefined || !lookup.supportedCurrencies.includes(currency))
      return yield* new InvalidCurrency({
        message: `The receiver does not accept ${currency ?? "any currency the sandbox trades"}`,
        details: { currency, supportedCurrencies: lookup.supportedCurrencies }
      })
    const outcome: SandboxUmaOutcome | undefined = lookup.receiver.type === "SANDBOX_UMA" ? lookup.receiver.outcome : undefined
    const receiverCustomerId = lookup.receiver.type === "CUSTOMER" ? lookup.receiver.customerId : undefined
    return { currency, ...(outcome === undefined ? {} : { outcome }), ...(receiverCustomerId === undefined ? {} : { receiverCustomerId }) }
  })
