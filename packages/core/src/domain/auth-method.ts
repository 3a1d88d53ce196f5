export type CredentialType = "PASSKEY" | "OAUTH" | "EMAIL_OTP" | "SMS_OTP"

/**
 * A wallet credential (AuthMethod). `email` ties an EMAIL_OTP credential to the customer's
 * email; it is stored for delivery and for the email-change flow, and shown as the nickname.
 */
export interface AuthMethodRecord {
  readonly id: string
  readonly accountId: string
  readonly customerId?: string
  readonly type: CredentialType
  readonly nickname: string
  readonly email?: string
  readonly createdAt: string
  readonly updatedAt: string
}

export const authMethodView = (a: AuthMethodRecord) => ({
  id: a.id,
  accountId: a.accountId,
  type: a.type,
  nickname: a.nickname,
  createdAt: a.createdAt,
  updatedAt: a.updatedAt
})
