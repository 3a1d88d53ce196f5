export type CredentialType = "PASSKEY" | "OAUTH" | "EMAIL_OTP" | "SMS_OTP"

/** What a registered passkey needs to check its assertions later. */
export interface PasskeyKey {
  /** Uncompressed SEC1 hex of the COSE ES256 key. */
  readonly publicKey: string
  /** SHA-256 of the relying-party id, hex, as the authenticator reported it at registration. */
  readonly rpIdHash: string
  readonly origin: string
  readonly signCount: number
}

/** The OIDC identity an OAUTH credential stands for. */
export interface OauthIdentity {
  readonly iss: string
  readonly aud: string
  readonly sub: string
}

/**
 * A wallet credential (AuthMethod). `email` ties an EMAIL_OTP credential to the customer's
 * email (shown as the nickname); `phoneNumber` does the same for SMS_OTP.
 */
export interface AuthMethodRecord {
  readonly id: string
  readonly accountId: string
  readonly customerId?: string
  readonly type: CredentialType
  readonly nickname: string
  readonly email?: string
  readonly phoneNumber?: string
  readonly credentialId?: string
  readonly passkey?: PasskeyKey
  readonly oauth?: OauthIdentity
  /** When `/challenge` last issued for this credential (DECISIONS #10 rate limit). */
  readonly lastChallengeAtMs?: number
  readonly createdAt: string
  readonly updatedAt: string
}

export const authMethodView = (a: AuthMethodRecord) => ({
  id: a.id,
  accountId: a.accountId,
  type: a.type,
  nickname: a.nickname,
  ...(a.credentialId === undefined ? {} : { credentialId: a.credentialId }),
  createdAt: a.createdAt,
  updatedAt: a.updatedAt
})
