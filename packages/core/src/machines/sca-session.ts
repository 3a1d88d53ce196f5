import { Either } from "effect"
import { AccountLocked, InvalidInput } from "../domain/errors.ts"
import type { ScaChallenge, ScaFactor, ScaSessionState } from "../domain/sca/records.ts"
import { SCA_LOCKOUT_MS, SCA_SESSION_MS, SCA_SUSPEND_AT } from "../limits.ts"
import { challengeMachine, type ScaProof } from "./sca-challenge.ts"
import { next, refuse, thenFail, type Machine } from "./transition.ts"

/**
 * A customer's SCA login and session (DECISIONS #222, #225):
 * - StartLogin: a login challenge for one factor replaces any pending one.
 * - CompleteLogin: the proof for the pending login; right, it opens a session of
 *   `SCA_SESSION_MS` and clears the failed-login count; wrong, it counts as a failed login.
 * - FailedLogin / PasswordReset: the two security events a platform records. A failed login
 *   escalates the lockout at each milestone; a password reset revokes the session and clears the
 *   count and the lock.
 * - Revoke: the session ends (a factor was reset).
 * While locked or suspended, completing a login is 423 ACCOUNT_LOCKED.
 */
export type ScaSessionEvent =
  | { readonly _tag: "StartLogin"; readonly challenge: ScaChallenge }
  | { readonly _tag: "CompleteLogin"; readonly factor: ScaFactor; readonly challengeId: string | undefined; readonly proof: ScaProof }
  | { readonly _tag: "FailedLogin" }
  | { readonly _tag: "PasswordReset" }
  | { readonly _tag: "Revoke" }

/** The lock in force at `now`: suspended, locked until a time, or none. */
export const lockAt = (s: ScaSessionState, now: number): { readonly suspended: boolean; readonly lockedUntilMs?: number } =>
  s.suspended ? { suspended: true } : s.lockedUntilMs !== undefined && now < s.lockedUntilMs ? { suspended: false, lockedUntilMs: s.lockedUntilMs } : { suspended: false }

export const isLocked = (s: ScaSessionState, now: number) => {
  const lock = lockAt(s, now)
  return lock.suspended || lock.lockedUntilMs !== undefined
}

export const sessionActive = (s: ScaSessionState, now: number) => s.sessionExpiresAtMs !== undefined && now < s.sessionExpiresAtMs

export const accountLocked = (s: ScaSessionState, now: number) => {
  const lock = lockAt(s, now)
  return new AccountLocked({
    message: lock.suspended ? "The customer's login is suspended; record a password reset to lift it" : "The customer's login is locked after too many failed attempts",
    details: { suspended: lock.suspended, lockedUntil: lock.lockedUntilMs === undefined ? null : new Date(lock.lockedUntilMs).toISOString(), failedAttempts: s.failedAttempts }
  })
}

/** One more failed login: the count, and the lock its milestone brings (the longer lock wins). */
export const failLogin = (s: ScaSessionState, now: number): ScaSessionState => {
  const failedAttempts = s.failedAttempts + 1
  if (failedAttempts >= SCA_SUSPEND_AT) {
    const { lockedUntilMs: _gone, ...rest } = s
    return { ...rest, failedAttempts, suspended: true }
  }
  const lockMs = SCA_LOCKOUT_MS[failedAttempts]
  const lockedUntilMs = lockMs === undefined ? s.lockedUntilMs : Math.max(s.lockedUntilMs ?? 0, now + lockMs)
  return { ...s, failedAttempts, ...(lockedUntilMs === undefined ? {} : { lockedUntilMs }) }
}

const withoutLogin = (s: ScaSessionState): ScaSessionState => {
  const { login: _done, ...rest } = s
  return rest
}

const noLogin = () => new InvalidInput({ message: "No SCA login is pending for this factor; start one first", details: { reason: "NO_PENDING_LOGIN" } })

const completeLogin = (s: ScaSessionState, e: Extract<ScaSessionEvent, { _tag: "CompleteLogin" }>, now: number) => {
  if (isLocked(s, now)) return refuse<ScaSessionState>(accountLocked(s, now))
  const login = s.login
  if (login === undefined || login.factor !== e.factor) return refuse<ScaSessionState>(noLogin())
  if (login.factor === "SMS_OTP" && e.challengeId !== login.id)
    return refuse<ScaSessionState>(
      new InvalidInput({ message: "challengeId is not the pending login's", details: { reason: "SCA_PROOF_INVALID", errors: [{ field: "challengeId", message: "must be the challengeId the login start returned" }] } })
    )
  const answered = challengeMachine(login, { _tag: "Answer", proof: e.proof }, now)
  if (Either.isLeft(answered)) return refuse<ScaSessionState>(answered.left)
  const { state: pending, answer } = answered.right
  if (answer !== undefined) {
    const failed = failLogin({ ...s, login: pending! }, now)
    return thenFail<ScaSessionState>(failed, answer)
  }
  const { lockedUntilMs: _lock, ...rest } = withoutLogin(s)
  return next<ScaSessionState>({ ...rest, failedAttempts: 0, sessionExpiresAtMs: now + SCA_SESSION_MS })
}

export const scaSessionMachine: Machine<ScaSessionState, ScaSessionEvent> = (s, event, now) => {
  switch (event._tag) {
    case "StartLogin":
      return next({ ...s, login: event.challenge })
    case "CompleteLogin":
      return completeLogin(s, event, now)
    case "FailedLogin":
      return next(failLogin(s, now))
    case "PasswordReset": {
      const { sessionExpiresAtMs: _s, lockedUntilMs: _l, ...rest } = withoutLogin(s)
      return next({ ...rest, failedAttempts: 0, suspended: false })
    }
    case "Revoke": {
      const { sessionExpiresAtMs: _s, ...rest } = s
      return next(rest)
    }
  }
}
