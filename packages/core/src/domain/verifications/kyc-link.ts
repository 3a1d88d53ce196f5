import type { CustomerId } from "../ids.ts"

/**
 * A hosted KYC/KYB link (POST /customers/{id}/kyc-link): single-use and expiring. Its id is the
 * random token the link's URL ends with, which the sandbox control names to complete the flow.
 */
export interface KycLinkRecord {
  readonly id: string
  readonly customerId: CustomerId
  readonly kycUrl: string
  readonly redirectUri?: string
  readonly expiresAt: string
  /** Set when the hosted flow was completed: the link cannot be used again. */
  readonly usedAt?: string
  readonly createdAt: string
  readonly updatedAt: string
}

/** The reference's `KycLinkResponse`. */
export const kycLinkView = (l: KycLinkRecord, provider: string) => ({
  kycUrl: l.kycUrl,
  expiresAt: l.expiresAt,
  provider,
  token: l.id
})
