import { Schema } from "effect"
import { CurrencyCode, DateTimeString, NonEmpty, optional } from "../common.ts"
import { IdSchema } from "../ids.ts"
import { rateFor, receivingLimits } from "../money/exchange-rate.ts"
import type { Currency } from "../internal-accounts/internal-account.ts"

/**
 * A receiver lookup (`GET /receiver/uma/{address}`, `GET /receiver/external-account/{id}`), kept
 * so that a quote naming its `lookupId` pays the receiver the lookup found (DECISIONS #177, #178).
 */
export type LookupReceiver =
  /** One of the sandbox's UMA receivers: its currency and what a payment to it does. */
  | { readonly type: "SANDBOX_UMA"; readonly currency: string; readonly outcome: "SUCCESS" | "PENDING_LONG" | "FAIL_COMPLIANCE" }
  /** A customer of the same platform, by its UMA address. */
  | { readonly type: "CUSTOMER"; readonly customerId: string }
  | { readonly type: "EXTERNAL_ACCOUNT"; readonly accountId: string }

export interface ReceiverLookupRecord {
  readonly id: string
  readonly receiverUmaAddress?: string
  readonly accountId?: string
  readonly receiver: LookupReceiver
  readonly senderCustomerId?: string
  readonly senderUmaAddress?: string
  /** The currency estimated rates were given from. */
  readonly sendingCurrency: string
  /** Codes of the currencies the receiver accepts, in the order answered. */
  readonly supportedCurrencies: ReadonlyArray<string>
  readonly createdAt: string
}

export const ReceiverLookupState = Schema.Struct({
  id: IdSchema("Lookup"),
  receiverUmaAddress: optional(NonEmpty(256)),
  accountId: optional(IdSchema("ExternalAccount")),
  receiver: Schema.Union(
    Schema.Struct({ type: Schema.Literal("SANDBOX_UMA"), currency: CurrencyCode, outcome: Schema.Literal("SUCCESS", "PENDING_LONG", "FAIL_COMPLIANCE") }),
    Schema.Struct({ type: Schema.Literal("CUSTOMER"), customerId: IdSchema("Customer") }),
    Schema.Struct({ type: Schema.Literal("EXTERNAL_ACCOUNT"), accountId: IdSchema("ExternalAccount") })
  ),
  senderCustomerId: optional(IdSchema("Customer")),
  senderUmaAddress: optional(NonEmpty(256)),
  sendingCurrency: CurrencyCode,
  supportedCurrencies: Schema.Array(CurrencyCode),
  createdAt: DateTimeString
})

export interface CurrencyPreference {
  readonly currency: Currency
  readonly estimatedExchangeRate: number
  readonly min: number
  readonly max: number
}

/** The reference's `CurrencyPreference` of each currency the sandbox trades from the lookup's sending currency. */
export const currencyPreferences = (lookup: ReceiverLookupRecord, nowMs: number): ReadonlyArray<CurrencyPreference> =>
  lookup.supportedCurrencies.flatMap((code) => {
    const rate = rateFor(lookup.sendingCurrency, code, nowMs)
    const limits = receivingLimits(code)
    return rate === undefined || limits === undefined ? [] : [{ currency: rate.receivingCurrency, estimatedExchangeRate: rate.exchangeRate, ...limits }]
  })

/** `ReceiverUmaLookupResponse` or `ReceiverExternalAccountLookupResponse`, as the lookup's kind is. */
export const lookupView = (lookup: ReceiverLookupRecord, nowMs: number) => ({
  ...(lookup.receiverUmaAddress === undefined ? {} : { receiverUmaAddress: lookup.receiverUmaAddress }),
  ...(lookup.accountId === undefined ? {} : { accountId: lookup.accountId }),
  supportedCurrencies: currencyPreferences(lookup, nowMs),
  lookupId: lookup.id
})
