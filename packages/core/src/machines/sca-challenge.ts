import { InvalidInput } from "../domain/errors.ts"
import type { ScaChallenge, ScaFactor } from "../domain/sca/records.ts"
import { OTP_MAX_ATTEMPTS } from "../limits.ts"
import { next, refuse, thenFail, type Machine } from "./transition.ts"

/**
 * The proof offered for a challenge, already judged by the operation (crypto results come in as
 * data): a code that matched or not, a passkey assertion that verified or not, or nothing usable.
 */
export type ScaProof =
  | { readonly kind: "code"; readonly matches: boolean }
  | { readonly kind: "passkey"; readonly valid: boolean; readonly reason?: string }

/**
 * Answering a challenge (DECISIONS #224). The next state is the challenge still pending
 * (`undefined` once satisfied: a challenge is single-use). Refusals, nothing written: expired,
 * withdrawn, or a proof of the wrong kind. A wrong proof is counted and then answered 400; the
 * `OTP_MAX_ATTEMPTS`-th withdraws the challenge (`details.reason: SCA_CHALLENGE_WITHDRAWN`).
 */
export type ScaChallengeEvent = { readonly _tag: "Answer"; readonly proof: ScaProof }

export const challengeExpired = () =>
  new InvalidInput({ message: "The SCA challenge expired; start a new one", details: { reason: "SCA_CHALLENGE_EXPIRED" } })

export const challengeWithdrawn = () =>
  new InvalidInput({ message: "Too many wrong proofs: the SCA challenge was withdrawn; start a new one", details: { reason: "SCA_CHALLENGE_WITHDRAWN" } })

const field = (proof: ScaProof) => (proof.kind === "code" ? "code" : "passkeyAssertion")

const wrongProof = (proof: ScaProof, left: number) =>
  new InvalidInput({
    message: "The SCA proof is not valid for this challenge",
    details: {
      reason: "SCA_PROOF_INVALID",
      attemptsRemaining: left,
      errors: [{ field: field(proof), message: proof.kind === "passkey" && proof.reason !== undefined ? proof.reason : "does not satisfy the challenge" }]
    }
  })

const proofKindFits = (factor: ScaFactor, proof: ScaProof) => (factor === "PASSKEY") === (proof.kind === "passkey")

export const challengeMachine: Machine<ScaChallenge | undefined, ScaChallengeEvent> = (challenge, event, now) => {
  if (challenge === undefined) return refuse(challengeExpired())
  if (challenge.failedAttempts >= OTP_MAX_ATTEMPTS) return refuse(challengeWithdrawn())
  if (now >= challenge.expiresAtMs) return refuse(challengeExpired())
  const { proof } = event
  if (!proofKindFits(challenge.factor, proof))
    return refuse(
      new InvalidInput({
        message: `This challenge is satisfied with ${challenge.factor === "PASSKEY" ? "passkeyAssertion and origin" : "code"}`,
        details: { reason: "SCA_PROOF_INVALID", errors: [{ field: challenge.factor === "PASSKEY" ? "passkeyAssertion" : "code", message: "is required for this challenge's factor" }] }
      })
    )
  const ok = proof.kind === "code" ? proof.matches : proof.valid
  if (ok) return next(undefined)
  const failed = { ...challenge, failedAttempts: challenge.failedAttempts + 1 }
  return thenFail(failed, failed.failedAttempts >= OTP_MAX_ATTEMPTS ? challengeWithdrawn() : wrongProof(proof, OTP_MAX_ATTEMPTS - failed.failedAttempts))
}

/** Whether a challenge can still be answered at `now`. */
export const challengeOpen = (c: ScaChallenge | undefined, now: number): c is ScaChallenge =>
  c !== undefined && c.failedAttempts < OTP_MAX_ATTEMPTS && now < c.expiresAtMs

/** The reference's `ScaChallenge` view. */
export const scaChallengeView = (c: ScaChallenge, passkeyOptions?: Record<string, unknown>) => ({
  id: c.id,
  expiresAt: new Date(c.expiresAtMs).toISOString(),
  factor: c.factor,
  availableFactors: c.availableFactors,
  ...(c.purpose === undefined ? {} : { purpose: c.purpose }),
  ...(c.factor === "PASSKEY" && passkeyOptions !== undefined ? { passkeyAssertionOptions: passkeyOptions } : {})
})
