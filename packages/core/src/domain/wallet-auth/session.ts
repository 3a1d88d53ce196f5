import type { CredentialType } from "./auth-method.ts"

/**
 * A wallet session: the key that may stamp signed retries on one internal account until
 * `expiresAtMs`. `publicKey` is compressed SEC1 hex; the private key never reaches the server in
 * the client-held flows, and in the legacy flow it is sealed to the client once and forgotten.
 */
export interface SessionRecord {
  readonly id: string
  readonly accountId: string
  readonly authMethodId: string
  readonly type: CredentialType
  readonly nickname: string
  readonly publicKey: string
  readonly expiresAtMs: number
  readonly revokedAt?: string
  readonly createdAt: string
  readonly updatedAt: string
}

export const isActiveSession = (s: SessionRecord, nowMs: number): boolean => s.revokedAt === undefined && nowMs < s.expiresAtMs

export const sessionView = (s: SessionRecord, encryptedSessionSigningKey?: string) => ({
  id: s.id,
  accountId: s.accountId,
  type: s.type,
  nickname: s.nickname,
  createdAt: s.createdAt,
  updatedAt: s.updatedAt,
  expiresAt: new Date(s.expiresAtMs).toISOString(),
  ...(encryptedSessionSigningKey === undefined ? {} : { encryptedSessionSigningKey })
})
