import type { CurrencyConfig, FeeConfig } from "./config.ts"

/**
 * A platform: the tenant whose backend calls the API with HTTP Basic credentials. The secret is
 * kept only as a salted scrypt hash (#128).
 */
export interface PlatformRecord {
  readonly id: string
  readonly name: string
  readonly clientId: string
  /** `scrypt$N$r$p$salt$hash` of the client secret. */
  readonly secretHash: string
  readonly umaDomain: string
  /** DECISIONS #11: whether self-custody FIRST_PARTY wallets start PENDING_OWNERSHIP_VERIFICATION. */
  readonly counterpartyRequirements: boolean
  /** `webhookEndpoint` of the configuration: the start's `--webhook-url`, or `PATCH /config` (#241). */
  readonly webhookUrl?: string
  /** The rest of the configuration a platform set with `PATCH /config`; absent until it does (#242). */
  readonly settings?: PlatformSettings
  readonly createdAt: string
  /** The last change of the configuration. */
  readonly updatedAt?: string
}

/** Configuration the engine keeps and reports, but does not act on (DECISIONS #242). */
export interface PlatformSettings {
  readonly supportedCurrencies?: ReadonlyArray<CurrencyConfig>
  readonly embeddedWalletConfig?: Readonly<Record<string, unknown>>
  readonly cardTokenization2faConfig?: Readonly<Record<string, unknown>>
  readonly feeConfigs?: ReadonlyArray<FeeConfig>
}
