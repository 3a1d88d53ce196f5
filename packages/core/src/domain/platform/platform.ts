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
  readonly webhookUrl?: string
  readonly createdAt: string
}
