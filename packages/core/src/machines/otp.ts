import { Either } from "effect"
import { RateLimited, Unauthorized } from "../domain/errors.ts"
import type { OtpIssuanceRecord } from "../domain/wallet-auth/records.ts"
import { CHALLENGE_INTERVAL_MS, lifetimes, OTP_MAX_ATTEMPTS } from "../limits.ts"
import { type Machine, next, refuse, thenFail } from "./transition.ts"

/**
 * One OTP issuance per OTP credential (undefined: none). Issue replaces any earlier issuance; a
 * wrong code counts against it and still fails the request (401), and the OTP_MAX_ATTEMPTS-th
 * wrong code withdraws it (429: a new challenge is needed); a right code leaves it pending until
 * the signed-retry challenge that binds it spends it, so one issuance serves one login.
 */
export type OtpState = OtpIssuanceRecord | undefined

export type OtpEvent =
  | { readonly _tag: "Issue"; readonly credentialId: string; readonly targetPrivateKey: string; readonly targetPublicKey: string; readonly code: string }
  /** `codeMatches`: the constant-time comparison of the opened code, given as data. */
  | { readonly _tag: "Attempt"; readonly codeMatches: boolean }
  | { readonly _tag: "Spend" }

export const refusedOtp = (reason: string) => new Unauthorized({ message: "OTP verification failed", details: { reason } })

const noPending = () => refusedOtp("No pending OTP for this credential")

/**
 * Challenges on one credential (an OTP issuance, or a passkey challenge) are spaced by
 * CHALLENGE_INTERVAL_MS: a new one inside it is 429 with the seconds left.
 */
export const reissueRefusal = (lastChallengeAtMs: number | undefined, now: number): RateLimited | undefined => {
  const wait = (lastChallengeAtMs ?? -Infinity) + CHALLENGE_INTERVAL_MS - now
  if (wait <= 0) return undefined
  const retryAfterSeconds = Math.ceil(wait / 1000)
  return new RateLimited({
    message: "A challenge was issued for this credential moments ago; wait before asking again",
    details: { retryAfterSeconds },
    retryAfterSeconds
  })
}

/** The issuance a code may be checked against now, or the 401 of its absence. */
export const pendingIssuance = (state: OtpState, now: number): Either.Either<OtpIssuanceRecord, Unauthorized> =>
  state === undefined || now >= state.expiresAtMs ? Either.left(noPending()) : Either.right(state)

export const otpIssuance: Machine<OtpState, OtpEvent> = (state, event, now) => {
  switch (event._tag) {
    case "Issue":
      return next<OtpState>({
        id: event.credentialId,
        targetPrivateKey: event.targetPrivateKey,
        targetPublicKey: event.targetPublicKey,
        code: event.code,
        expiresAtMs: now + lifetimes.otpMs,
        failedAttempts: 0
      })
    case "Attempt": {
      const pending = pendingIssuance(state, now)
      if (Either.isLeft(pending)) return refuse(pending.left)
      if (event.codeMatches) return next(state)
      const failedAttempts = pending.right.failedAttempts + 1
      return failedAttempts >= OTP_MAX_ATTEMPTS
        ? thenFail<OtpState>(
            undefined,
            new RateLimited({ message: "Too many wrong OTP codes; request a new challenge", details: { reason: "OTP_ATTEMPTS_EXHAUSTED" }, retryAfterSeconds: 1 })
          )
        : thenFail<OtpState>({ ...pending.right, failedAttempts }, refusedOtp("Invalid OTP code"))
    }
    case "Spend":
      return state === undefined ? refuse(noPending()) : next<OtpState>(undefined)
  }
}
