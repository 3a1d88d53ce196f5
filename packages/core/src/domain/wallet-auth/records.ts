import type { CredentialType } from "./auth-method.ts"

/**
 * A signed-retry challenge (spec "Signed-retry challenge lifecycle"). Bound to the method, path,
 * canonical body hash and internal account of the first call; consumed once.
 */
export interface SignedRequestRecord {
  readonly id: string
  readonly accountId: string
  readonly method: string
  readonly path: string
  readonly bodySha256: string
  readonly payloadToSign: string
  readonly expiresAtMs: number
  readonly type?: CredentialType
  /** The signed operation and its bound input (see signed-retry/registry.ts). */
  readonly kind: string
  readonly input: unknown
  readonly state: "ISSUED" | "PROCESSING" | "CONSUMED"
  /** PROCESSING: when the held operation settles, and the stamp an identical re-send must carry. */
  readonly settleAtMs?: number
  readonly stampSha256?: string
  /** The answer of an operation reconciliation settled, for the identical re-send (never export's). */
  readonly settledReply?: { readonly status: number; readonly body: unknown }
  readonly createdAt: string
}

/**
 * Sandbox control (DECISIONS #18): the next `remaining` signed operations of an account (id) or
 * of the whole platform (id "platform") answer 200 PROCESSING until `holdMs` of clock time passed.
 */
export interface ProcessingControlRecord {
  readonly id: string
  readonly remaining: number
  readonly holdMs: number
}

/** One OTP issuance per OTP credential: the HPKE target key the client seals the code to. */
export interface OtpIssuanceRecord {
  /** The credential's id: a new issuance replaces the previous one. */
  readonly id: string
  readonly targetPrivateKey: string
  readonly targetPublicKey: string
  readonly code: string
  readonly expiresAtMs: number
  readonly failedAttempts: number
}

/** A passkey authentication challenge: the `Request-Id` the assertion must come back with. */
export interface PasskeyChallengeRecord {
  readonly id: string
  readonly authMethodId: string
  readonly accountId: string
  /** Lowercase hex SHA-256 of the session-creation body; the WebAuthn challenge is its UTF-8. */
  readonly challenge: string
  readonly clientPublicKey: string
  readonly expiresAtMs: number
  readonly consumed: boolean
}
