/**
 * A platform: the tenant whose backend calls the API with HTTP Basic credentials. The secret is
 * kept only as its SHA-256, and compared in constant time.
 */
export interface PlatformRecord {
  readonly id: string
  readonly name: string
  readonly clientId: string
  readonly secretSha256: string
  readonly umaDomain: string
  /** DECISIONS #11: whether self-custody FIRST_PARTY wallets start PENDING_OWNERSHIP_VERIFICATION. */
  readonly counterpartyRequirements: boolean
  readonly webhookUrl?: string
  readonly createdAt: string
}
