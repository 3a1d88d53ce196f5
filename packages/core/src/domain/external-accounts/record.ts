/**
 * An external account (spec "Resources"): a bank account or wallet a customer or the platform
 * pays to or from. The ownership challenge lives on the record (spec: it belongs to the account).
 */
export type ExternalAccountStatus = "PENDING" | "ACTIVE" | "PENDING_OWNERSHIP_VERIFICATION" | "UNVERIFIED" | "UNDER_REVIEW" | "INACTIVE"
export type BeneficiaryVerificationStatus = "MATCHED" | "PARTIAL_MATCH" | "NOT_MATCHED" | "UNSUPPORTED" | "CHECKED_BY_RECEIVING_FI" | "PENDING"
export type OwnershipMethod = "WALLET_SIGNATURE" | "LIVENESS"

export interface OwnershipChallengeRecord {
  readonly method: OwnershipMethod
  /** WALLET_SIGNATURE: the exact text to sign. */
  readonly messageToSign?: string
  /** LIVENESS: where the customer completes the check. */
  readonly verificationLink?: string
  readonly nonce: string
  readonly expiresAtMs: number
}

export interface ExternalAccountRecord {
  readonly id: string
  readonly customerId?: string
  readonly status: ExternalAccountStatus
  readonly platformAccountId?: string
  readonly ownershipType?: "FIRST_PARTY" | "THIRD_PARTY"
  readonly currency: string
  readonly defaultUmaDepositAccount: boolean
  readonly beneficiaryVerificationStatus?: BeneficiaryVerificationStatus
  readonly beneficiaryVerifiedData?: { readonly fullName: string }
  readonly accountInfo: Readonly<Record<string, unknown>> & { readonly accountType: string }
  /** Sandbox transfer outcome (002–005) read from the identifier, for the money-movement work. */
  readonly sandboxTransferSuffix?: string
  /** The outstanding ownership challenge, if any; a new one replaces it. */
  readonly challenge?: OwnershipChallengeRecord
  readonly trusted?: boolean
  /** A pending SCA-confirmed trust change (sandbox code 123456), with the wrong proofs it took. */
  readonly trustChange?: { readonly challengeId: string; readonly trust: boolean; readonly expiresAtMs: number; readonly failedAttempts?: number }
  /** owner|accountType|identifier: one account per owner and identifier (a second is 409). */
  readonly identityKey: string
  readonly createdAt: string
  readonly updatedAt: string
}

/** The `identityKey` of an account: its owner (a customer id, or `platform`), type and identifier, lower-cased. */
export const identityKeyOf = (owner: string, accountType: string, identifier: string) => `${owner}|${accountType}|${identifier.toLowerCase()}`

/** The resource as the API shows it (reference `ExternalAccount`). */
export const externalAccountView = (a: ExternalAccountRecord) => ({
  id: a.id,
  ...(a.customerId === undefined ? {} : { customerId: a.customerId }),
  status: a.status,
  ...(a.platformAccountId === undefined ? {} : { platformAccountId: a.platformAccountId }),
  ...(a.ownershipType === undefined ? {} : { ownershipType: a.ownershipType }),
  currency: a.currency,
  defaultUmaDepositAccount: a.defaultUmaDepositAccount,
  ...(a.beneficiaryVerificationStatus === undefined ? {} : { beneficiaryVerificationStatus: a.beneficiaryVerificationStatus }),
  ...(a.beneficiaryVerifiedData === undefined ? {} : { beneficiaryVerifiedData: a.beneficiaryVerifiedData }),
  accountInfo: a.accountInfo
})
