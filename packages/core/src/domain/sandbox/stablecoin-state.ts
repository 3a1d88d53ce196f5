import { Schema } from "effect"
import { DateTimeString, NonEmpty, optional } from "../common.ts"
import { StablecoinOperations, StablecoinProviderAccounts, Stablecoins } from "../collections.ts"
import { IdSchema } from "../ids.ts"
import { lazily } from "./lazily.ts"

/**
 * Stablecoin links, stablecoins and operations in a state document (DECISIONS #368): the fields
 * the machine, the ledger plan and the views read, with their types; checked, never rewritten.
 */
export const stablecoinStates = lazily(() => {
  const Brale = Schema.Literal("BRALE")
  const Sandbox = Schema.Literal("SANDBOX")
  const SafeInt = Schema.Number.pipe(Schema.int(), Schema.between(-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER))

  const ProviderAccountState = Schema.Struct({
    id: IdSchema("StablecoinProviderAccount"),
    provider: Brale,
    providerAccountId: NonEmpty(64),
    providerEnvironment: Sandbox,
    status: Schema.Literal("ACTIVE", "INVALID", "REVOKED"),
    apiClientId: NonEmpty(255),
    lastVerifiedAt: DateTimeString,
    createdAt: DateTimeString,
    updatedAt: DateTimeString
  })

  const StablecoinState = Schema.Struct({
    id: IdSchema("Stablecoin"),
    name: NonEmpty(255),
    symbol: NonEmpty(12),
    baseCurrency: NonEmpty(16),
    network: Schema.Literal("SPARK"),
    decimals: Schema.Number.pipe(Schema.int(), Schema.between(2, 18)),
    issuanceStatus: Schema.Literal("PENDING_REVIEW", "PROVISIONING", "PROVISIONED", "REJECTED", "FAILED"),
    gridOperationsStatus: Schema.Literal("NOT_ENABLED", "PENDING_APPROVAL", "ENABLING", "ENABLED", "DISABLED"),
    networkTokenIdentifier: NonEmpty(128),
    provider: Brale,
    stablecoinProviderAccountId: IdSchema("StablecoinProviderAccount"),
    providerEnvironment: Sandbox,
    providerTokenIdentifier: NonEmpty(12),
    createdAt: DateTimeString,
    updatedAt: DateTimeString
  })

  const Entry = Schema.Struct({ account: NonEmpty(256), currency: NonEmpty(128), bucket: Schema.Literal("available", "pending", "held"), amount: SafeInt })

  const StablecoinOperationState = Schema.Struct({
    id: IdSchema("StablecoinOperation"),
    stablecoinId: IdSchema("Stablecoin"),
    operationType: Schema.Literal("MINT", "BURN"),
    status: Schema.Literal("CREATED", "PENDING_FUNDING", "PENDING_PROVIDER", "PROCESSING", "COMPLETED", "FAILED", "EXPIRED"),
    amount: Schema.String.pipe(Schema.pattern(/^[1-9][0-9]{0,15}$/)),
    provider: Brale,
    providerEnvironment: Sandbox,
    stablecoinProviderAccountId: IdSchema("StablecoinProviderAccount"),
    source: Schema.Struct({
      type: Schema.Literal("WIRE", "ACH_DEBIT", "SAME_DAY_ACH_DEBIT", "EXTERNAL_ACCOUNT", "GRID_INTERNAL_ACCOUNT", "PROVIDER_INTERNAL_BALANCE"),
      externalAccountId: optional(NonEmpty(128)),
      accountId: optional(NonEmpty(128)),
      sourceTokenIdentifier: optional(NonEmpty(32)),
      cryptoNetwork: optional(NonEmpty(32))
    }),
    fundingInstructions: optional(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
    destination: Schema.Struct({ accountId: NonEmpty(128), rail: optional(Schema.Literal("WIRE", "ACH_CREDIT", "SAME_DAY_ACH_CREDIT", "RTP_CREDIT")) }),
    estimatedDelivery: optional(Schema.Struct({ rail: NonEmpty(32), amount: Schema.String.pipe(Schema.pattern(/^[0-9]+$/)), currency: NonEmpty(16), timing: NonEmpty(64) })),
    expiresAt: optional(DateTimeString),
    failureReason: optional(NonEmpty(64)),
    description: optional(Schema.String.pipe(Schema.maxLength(1024))),
    ledger: Schema.Struct({
      hold: optional(Schema.Struct({ account: NonEmpty(256), currency: NonEmpty(128), amount: SafeInt })),
      settle: Schema.Array(Entry)
    }),
    createdAt: DateTimeString,
    updatedAt: DateTimeString
  })
  return { ProviderAccountState, StablecoinState, StablecoinOperationState }
})

export const stablecoinStateCollections = [
  { collection: StablecoinProviderAccounts, schema: () => stablecoinStates().ProviderAccountState },
  { collection: Stablecoins, schema: () => stablecoinStates().StablecoinState },
  { collection: StablecoinOperations, schema: () => stablecoinStates().StablecoinOperationState }
] as const
