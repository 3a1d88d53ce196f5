import { Schema } from "effect"
import { NonEmpty, optional } from "../common.ts"

/** The request bodies and list filters of the stablecoin endpoints, as the reference declares them. */

const Provider = Schema.Literal("BRALE")

/** The reference's `StablecoinProviderAccountLinkRequest`. */
export const ProviderAccountLink = Schema.Struct({
  provider: Provider,
  apiClientId: NonEmpty(255),
  apiClientSecret: NonEmpty(1024),
  providerAccountId: optional(NonEmpty(64))
})
export type ProviderAccountLink = typeof ProviderAccountLink.Type

export const ProviderAccountFilters = {
  provider: optional(Provider),
  status: optional(Schema.Literal("ACTIVE", "INVALID", "REVOKED"))
}

/** A provider's token identifier (Brale's `value_type`) becomes the stablecoin's symbol (DECISIONS #354). */
const TokenSymbol = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z0-9]{2,12}$/, { message: () => "must be 2 to 12 letters and digits" })
)

/** A Spark token identifier: the `btkn` prefixes, then bech32 characters (the checksum is not checked, #355). */
const SparkTokenIdentifier = Schema.String.pipe(
  Schema.pattern(/^btkn[a-z]{0,2}1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{6,90}$/, { message: () => "must be a Spark token identifier (btkn1…)" })
)

/** The reference's `StablecoinRegisterRequest`. */
export const StablecoinRegister = Schema.Struct({
  providerTokenIdentifier: TokenSymbol,
  networkTokenIdentifier: SparkTokenIdentifier,
  network: Schema.Literal("SPARK"),
  stablecoinProviderAccountId: optional(NonEmpty(128))
})
export type StablecoinRegister = typeof StablecoinRegister.Type

export const StablecoinFilters = {
  issuanceStatus: optional(Schema.Literal("PENDING_REVIEW", "PROVISIONING", "PROVISIONED", "REJECTED", "FAILED")),
  gridOperationsStatus: optional(Schema.Literal("NOT_ENABLED", "PENDING_APPROVAL", "ENABLING", "ENABLED", "DISABLED")),
  provider: optional(Provider)
}

/** In the stablecoin's smallest unit, as digits; exact in a JavaScript number (DECISIONS #359). */
const TokenAmount = Schema.String.pipe(
  Schema.pattern(/^[0-9]+$/, { message: () => "must be a string of digits" }),
  Schema.filter((s) => BigInt(s) > 0n || "must be greater than 0"),
  Schema.filter((s) => BigInt(s) <= BigInt(Number.MAX_SAFE_INTEGER) || `must be at most ${Number.MAX_SAFE_INTEGER}`)
)

const Description = Schema.String.pipe(Schema.maxLength(1024))
const Id = NonEmpty(128)

/** The reference's `StablecoinMintFundingSource`, by `type`. */
export const MintFundingSource = Schema.Union(
  Schema.Struct({ type: Schema.Literal("WIRE") }),
  Schema.Struct({ type: Schema.Literal("ACH_DEBIT"), externalAccountId: Id }),
  Schema.Struct({ type: Schema.Literal("SAME_DAY_ACH_DEBIT"), externalAccountId: Id }),
  Schema.Struct({ type: Schema.Literal("GRID_INTERNAL_ACCOUNT"), accountId: Id }),
  Schema.Struct({ type: Schema.Literal("PROVIDER_INTERNAL_BALANCE"), sourceTokenIdentifier: NonEmpty(32), cryptoNetwork: NonEmpty(32) })
)
export type MintFundingSource = typeof MintFundingSource.Type

/** The reference's `StablecoinMintRequest`. */
export const StablecoinMint = Schema.Struct({
  amount: TokenAmount,
  fundingSource: MintFundingSource,
  destination: Schema.Struct({ accountId: Id }),
  description: optional(Description)
})
export type StablecoinMint = typeof StablecoinMint.Type

/** The reference's `StablecoinBurnSource`, by `type`. */
export const BurnSource = Schema.Union(
  Schema.Struct({ type: Schema.Literal("EXTERNAL_ACCOUNT") }),
  Schema.Struct({ type: Schema.Literal("GRID_INTERNAL_ACCOUNT"), accountId: Id }),
  Schema.Struct({ type: Schema.Literal("PROVIDER_INTERNAL_BALANCE") })
)

export const PayoutRail = Schema.Literal("WIRE", "ACH_CREDIT", "SAME_DAY_ACH_CREDIT", "RTP_CREDIT")

/** The reference's `StablecoinBurnRequest`. */
export const StablecoinBurn = Schema.Struct({
  amount: TokenAmount,
  source: BurnSource,
  destination: Schema.Struct({ type: Schema.Literal("EXTERNAL_ACCOUNT"), externalAccountId: Id, rail: PayoutRail }),
  description: optional(Description)
})
export type StablecoinBurn = typeof StablecoinBurn.Type

export const OperationFilters = {
  operationType: optional(Schema.Literal("MINT", "BURN"))
}
