import { Schema } from "effect"
import { CountryCode, CurrencyCode, NonEmpty, optional } from "../common.ts"
import { UncompressedPublicKey } from "../wallet-auth/inputs.ts"
import { CardState } from "./card.ts"

/** Amounts in the smallest unit of a currency: safe integers. */
const Positive = Schema.Number.pipe(Schema.int(), Schema.greaterThanOrEqualTo(1), Schema.lessThanOrEqualTo(Number.MAX_SAFE_INTEGER))
const NonNegative = Schema.Number.pipe(Schema.int(), Schema.greaterThanOrEqualTo(0), Schema.lessThanOrEqualTo(Number.MAX_SAFE_INTEGER))

/** At most this many funding sources on one card (the reference sets no bound; DECISIONS #204). */
export const MAX_FUNDING_SOURCES = 10

const FundingSources = Schema.Array(NonEmpty(128)).pipe(Schema.minItems(1), Schema.maxItems(MAX_FUNDING_SOURCES))

/** The reference's `CardCreateRequest`. */
export const CardCreate = Schema.Struct({
  cardholderId: NonEmpty(128),
  platformCardId: optional(NonEmpty(128)),
  threeDSecurePassword: optional(NonEmpty(128)),
  form: Schema.Literal("VIRTUAL"),
  fundingSources: FundingSources,
  maxSpendPerTransaction: optional(Positive)
})
export type CardCreate = typeof CardCreate.Type

/** The reference's `CardUpdateRequest`: at least one field (checked by the operation). */
export const CardUpdate = Schema.Struct({
  state: optional(Schema.Literal("ACTIVE", "FROZEN", "CLOSED")),
  fundingSources: optional(FundingSources),
  maxSpendPerTransaction: optional(Schema.NullOr(Positive))
})
export type CardUpdate = typeof CardUpdate.Type

export const CardListFilters = {
  cardholderId: optional(Schema.String),
  accountId: optional(Schema.String),
  platformCardId: optional(Schema.String),
  state: optional(CardState),
  sortOrder: optional(Schema.Literal("asc", "desc"))
}

/** `POST /cards/{id}/reveal`: the reference sends no body; a `clientPublicKey` gets the details sealed to it (DECISIONS #205). */
export const CardRevealBody = Schema.Struct({ clientPublicKey: optional(UncompressedPublicKey) })

const Merchant = Schema.Struct({
  descriptor: NonEmpty(256),
  mcc: optional(Schema.String.pipe(Schema.pattern(/^\d{4}$/, { message: () => "must be a four-digit Merchant Category Code" }))),
  country: optional(CountryCode)
})

/** The reference's `SandboxCardAuthorizationRequest` (the authorization family of simulators). */
export const SimAuthorization = Schema.Struct({
  amount: Positive,
  currency: Schema.Struct({ code: CurrencyCode }),
  merchant: Merchant
})
export type SimAuthorization = typeof SimAuthorization.Type

export const SimBalanceInquiry = Schema.Struct({ merchant: Merchant })

export const SimClearing = Schema.Struct({ cardTransactionId: NonEmpty(128), amount: NonNegative })
export const SimReturn = Schema.Struct({ cardTransactionId: NonEmpty(128), amount: Positive })
export const SimAdvice = Schema.Struct({ cardTransactionId: NonEmpty(128), amount: Positive })
export const SimTransactionRef = Schema.Struct({ cardTransactionId: NonEmpty(128) })
