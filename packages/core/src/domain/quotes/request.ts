import { Schema } from "effect"
import { CurrencyCode, NonEmpty, optional } from "../common.ts"
import { UmaAddress } from "../customers/customer.ts"

/** The reference's `QuoteRequest` and its parts (`QuoteSourceOneOf`, `QuoteDestinationOneOf`). */

export const AccountQuoteSource = Schema.Struct({
  sourceType: Schema.Literal("ACCOUNT"),
  accountId: NonEmpty(128),
  customerId: optional(NonEmpty(128))
})

export const RealtimeFundingQuoteSource = Schema.Struct({
  sourceType: Schema.Literal("REALTIME_FUNDING"),
  currency: CurrencyCode,
  customerId: optional(NonEmpty(128)),
  cryptoNetwork: optional(NonEmpty(32))
})

export const QuoteSource = Schema.Union(AccountQuoteSource, RealtimeFundingQuoteSource)
export type QuoteSource = typeof QuoteSource.Type

export const PaymentRail = Schema.Literal(
  "ACH", "ACH_COLOMBIA", "BANK_TRANSFER", "BRE_B", "CIPS", "FAST", "FASTER_PAYMENTS", "FEDNOW", "INSTAPAY", "MOBILE_MONEY", "NEFT", "PAYNOW", "PESONET", "PIX", "RTGS", "RTP", "SEPA", "SEPA_INSTANT", "SPEI", "SWIFT", "UNIONPAY", "UPI", "WIRE"
)

export const AccountDestination = Schema.Struct({
  destinationType: Schema.Literal("ACCOUNT"),
  accountId: NonEmpty(128),
  paymentRail: optional(PaymentRail)
})

export const UmaAddressDestination = Schema.Struct({
  destinationType: Schema.Literal("UMA_ADDRESS"),
  umaAddress: UmaAddress,
  currency: optional(CurrencyCode)
})

export const QuoteDestination = Schema.Union(AccountDestination, UmaAddressDestination)
export type QuoteDestination = typeof QuoteDestination.Type

export const PurposeOfPayment = Schema.Literal(
  "GIFT", "SELF", "GOODS_OR_SERVICES", "EDUCATION", "HEALTH_OR_MEDICAL", "REAL_ESTATE_PURCHASE", "TAX_PAYMENT", "LOAN_PAYMENT", "UTILITY_BILL", "DONATION", "TRAVEL", "FAMILY_SUPPORT", "SALARY_PAYMENT", "OTHER"
)

/** The reference caps `lockedCurrencyAmount` at 9e15 (int64 smallest units). */
export const MAX_LOCKED_AMOUNT = 9_000_000_000_000_000

export const QuoteRequest = Schema.Struct({
  lookupId: optional(NonEmpty(128)),
  source: QuoteSource,
  destination: QuoteDestination,
  lockedCurrencySide: Schema.Literal("SENDING", "RECEIVING"),
  lockedCurrencyAmount: Schema.Int.pipe(Schema.positive(), Schema.lessThanOrEqualTo(MAX_LOCKED_AMOUNT)),
  immediatelyExecute: optional(Schema.Boolean),
  description: optional(Schema.String.pipe(Schema.maxLength(1024))),
  remittanceInformation: optional(Schema.String.pipe(Schema.maxLength(80))),
  purposeOfPayment: optional(PurposeOfPayment),
  senderCustomerInfo: optional(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  scaFactor: optional(Schema.Literal("SMS_OTP", "PASSKEY", "TOTP"))
})
export type QuoteRequest = typeof QuoteRequest.Type

/** `POST /quotes/{id}/execute`'s optional body: the factor of the SCA challenge an SCA customer's execution issues. */
export const ExecuteQuoteRequest = Schema.Struct({
  scaFactor: optional(Schema.Literal("SMS_OTP", "PASSKEY", "TOTP"))
})

export const SandboxSendRequest = Schema.Struct({
  quoteId: NonEmpty(128),
  currencyCode: CurrencyCode,
  currencyAmount: optional(Schema.Int.pipe(Schema.positive(), Schema.lessThanOrEqualTo(MAX_LOCKED_AMOUNT)))
})

export const SandboxUmaReceiveRequest = Schema.Struct({
  senderUmaAddress: UmaAddress,
  receiverUmaAddress: optional(UmaAddress),
  customerId: optional(NonEmpty(128)),
  receivingCurrencyCode: CurrencyCode,
  receivingCurrencyAmount: Schema.Int.pipe(Schema.positive(), Schema.lessThanOrEqualTo(MAX_LOCKED_AMOUNT))
})
