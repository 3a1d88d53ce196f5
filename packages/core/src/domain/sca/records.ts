/** The reference's SCA factors. SMS_OTP needs no enrollment (the customer's verified phone). */
export const scaFactors = ["SMS_OTP", "TOTP", "PASSKEY"] as const
export type ScaFactor = (typeof scaFactors)[number]

/**
 * One SCA challenge: what a login, a quote's authorization or a beneficiary trust change must
 * satisfy. `passkeyChallenge` is the hex string whose UTF-8 bytes a PASSKEY assertion signs.
 */
export interface ScaChallenge {
  readonly id: string
  readonly factor: ScaFactor
  readonly availableFactors: ReadonlyArray<ScaFactor>
  readonly purpose?: string
  readonly expiresAtMs: number
  /** When its code was last sent (the resend interval counts from here). */
  readonly sentAtMs: number
  /** Wrong proofs so far; at `OTP_MAX_ATTEMPTS` the challenge is withdrawn. */
  readonly failedAttempts: number
  readonly passkeyChallenge?: string
}

/** A TOTP factor: pending until its first code confirms it. */
export interface TotpFactor {
  readonly secret: string
  readonly enrolled: boolean
  readonly expiresAtMs?: number
}

/** A registered passkey credential (what the WebAuthn registration check yields). */
export interface ScaPasskeyCredential {
  readonly credentialId: string
  readonly publicKey: string
  readonly rpIdHash: string
  readonly origin: string
  readonly signCount: number
}

/** A passkey factor: a pending registration challenge, then the registered credential. */
export type PasskeyFactor =
  | { readonly enrolled: false; readonly challenge: string; readonly expiresAtMs: number }
  | { readonly enrolled: true; readonly credential: ScaPasskeyCredential; readonly enrolledAt: string }

/** What the factor machine keeps of a customer. */
export interface ScaFactorsState {
  readonly totp?: TotpFactor
  readonly passkey?: PasskeyFactor
}

/** What the session machine keeps of a customer: the pending login, the session, the lockout. */
export interface ScaSessionState {
  readonly login?: ScaChallenge
  readonly sessionExpiresAtMs?: number
  readonly failedAttempts: number
  readonly lockedUntilMs?: number
  readonly suspended: boolean
}

/** A customer's SCA record, one per SCA customer (id = the customer id), written on first use. */
export interface ScaProfileRecord extends ScaFactorsState, ScaSessionState {
  readonly id: string
  /** Starts of 2FA resets within the rate window (ms), oldest first. */
  readonly resetStarts: ReadonlyArray<number>
}

export const emptyProfile = (customerId: string): ScaProfileRecord => ({ id: customerId, failedAttempts: 0, suspended: false, resetStarts: [] })

export const resetStatuses = ["INITIATED", "PENDING_REVIEW", "LIVENESS_PASSED", "COMPLETED", "REJECTED", "EXPIRED"] as const
export type ResetStatus = (typeof resetStatuses)[number]

/** A 2FA reset (`ScaReset:<uuid>`); its status before completion is read off the clock. */
export interface ScaResetRecord {
  readonly id: string
  readonly customerId: string
  readonly factor: ScaFactor
  readonly startedAtMs: number
  readonly expiresAtMs: number
  readonly completedAtMs?: number
}
