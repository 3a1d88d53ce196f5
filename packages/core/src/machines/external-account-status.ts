import { Either } from "effect"
import { Conflict, ExternalAccountVerificationRequired, InvalidInput } from "../domain/errors.ts"
import { invalidInput } from "../domain/field-errors.ts"
import {
  type ExternalAccountRecord,
  type ExternalAccountStatus,
  externalAccountView,
  type OwnershipChallengeRecord,
  type OwnershipMethod
} from "../domain/external-accounts/record.ts"
import { rfc3339 } from "../domain/time.ts"
import { lifetimes, SCA_CHALLENGE_MS } from "../limits.ts"
import { challengeMachine, type ScaProof } from "./sca-challenge.ts"
import { LIVENESS_LINK_BASE } from "../sandbox/literals.ts"
import { type Emitted, type Machine, next, refuse, thenFail } from "./transition.ts"

/**
 * The external account's ownership status (spec "Resources", "Events"). Only a FIRST_PARTY
 * self-custody wallet with a key proves ownership: a challenge puts it in (or back in)
 * PENDING_OWNERSHIP_VERIFICATION; a valid signature before expiry or a PASSED liveness makes it
 * ACTIVE; a late or invalid signature or a FAILED liveness makes it UNVERIFIED. The beneficiary
 * trust flag is a sub-state beside it: a pending SCA challenge, then the confirmed flag.
 * Every status change emits STATUS_UPDATED; nothing else does.
 */
export const STATUS_UPDATED = "EXTERNAL_ACCOUNT.STATUS_UPDATED"

export type ExternalAccountEvent =
  | {
      readonly _tag: "StartChallenge"
      readonly method: OwnershipMethod
      readonly nonce: string
      /** Whether the account type has a key to prove (a crypto wallet other than Lightning). */
      readonly keyedWallet: boolean
    }
  /** `verifies` is the chain's signature check over the challenge's message, given as data. */
  | { readonly _tag: "VerifySignature"; readonly verifies: (messageToSign: string) => boolean }
  | { readonly _tag: "DecideLiveness"; readonly outcome: "PASSED" | "FAILED" }
  | { readonly _tag: "StartTrustChange"; readonly trust: boolean; readonly challengeId: string }
  | { readonly _tag: "ConfirmTrustChange"; readonly trust: boolean; readonly challengeId: string | undefined; readonly proof: ScaProof }

/** The statuses a transfer above the Travel Rule threshold may not use. */
export const awaitsOwnership = (status: ExternalAccountStatus): boolean => status === "PENDING_OWNERSHIP_VERIFICATION" || status === "UNVERIFIED"

/** The Travel Rule gate (DECISIONS #14) as a pure check. */
export const travelRule = (account: ExternalAccountRecord, amountEurCents: number, thresholdEurCents: number): Either.Either<void, ExternalAccountVerificationRequired> =>
  awaitsOwnership(account.status) && amountEurCents > thresholdEurCents
    ? Either.left(
        new ExternalAccountVerificationRequired({
          message: "The external account's ownership must be verified before a transfer of this size",
          details: { externalAccountId: account.id, status: account.status, thresholdEurCents }
        })
      )
    : Either.right(undefined)

const conflict = (reason: string, message: string) => new Conflict({ message, details: { reason } })

/** STATUS_UPDATED when, and only when, the status changed. */
export const statusEvents = (before: ExternalAccountRecord, after: ExternalAccountRecord): ReadonlyArray<Emitted> =>
  before.status === after.status ? [] : [{ type: STATUS_UPDATED, resourceId: after.id, data: externalAccountView(after) }]

/** DECISIONS #12: readable, unique, names the account; one line per fact, no surrounding space. */
export const messageFor = (account: ExternalAccountRecord, nonce: string, expiresAtMs: number) =>
  [
    "I verify that I control this wallet.",
    `Account: ${account.id}`,
    `Address: ${String(account.accountInfo["address"])}`,
    `Nonce: ${nonce}`,
    `Expires: ${rfc3339(expiresAtMs)}`
  ].join("\n")

/** The challenge is spent either way; the status is the outcome. */
const settle = (account: ExternalAccountRecord, status: ExternalAccountStatus, now: number): ExternalAccountRecord => {
  const { challenge: _spent, ...rest } = account
  return { ...rest, status, updatedAt: rfc3339(now) }
}

const ownershipRefused = (reason: "CHALLENGE_EXPIRED" | "SIGNATURE_INVALID") =>
  new InvalidInput({
    message:
      reason === "CHALLENGE_EXPIRED"
        ? "The challenge expired; the account is UNVERIFIED until a new challenge is verified"
        : "The signature does not prove ownership of the address; the account is UNVERIFIED until a new challenge is verified",
    details: { reason, errors: [{ field: "signature", message: reason === "CHALLENGE_EXPIRED" ? "arrived after expiresAt" : "does not verify" }] }
  })

/** Why this account may not start an ownership challenge now, in the spec's order; undefined if it may. */
export const challengeRefusal = (account: ExternalAccountRecord, keyedWallet: boolean): Conflict | undefined => {
  if (!keyedWallet) return conflict("NOT_A_KEYED_WALLET", "Ownership verification applies only to crypto wallets with a key (not bank accounts or Lightning)")
  if (account.accountInfo["vaspName"] !== undefined) return conflict("CUSTODIAL_WALLET", "A custodial wallet (vaspName) needs no ownership proof")
  if (account.ownershipType !== "FIRST_PARTY") return conflict("NOT_FIRST_PARTY", "Only FIRST_PARTY wallets prove ownership")
  if (!awaitsOwnership(account.status)) return conflict("ALREADY_VERIFIED", `The account is ${account.status}; no ownership verification is pending`)
  return undefined
}

const startChallenge = (account: ExternalAccountRecord, e: Extract<ExternalAccountEvent, { _tag: "StartChallenge" }>, now: number) => {
  const refusal = challengeRefusal(account, e.keyedWallet)
  if (refusal !== undefined) return refuse<ExternalAccountRecord>(refusal)
  const expiresAtMs = now + lifetimes.ownershipChallengeMs
  const challenge: OwnershipChallengeRecord =
    e.method === "WALLET_SIGNATURE"
      ? { method: e.method, nonce: e.nonce, expiresAtMs, messageToSign: messageFor(account, e.nonce, expiresAtMs) }
      : { method: e.method, nonce: e.nonce, expiresAtMs, verificationLink: `${LIVENESS_LINK_BASE}/${encodeURIComponent(account.id)}/${e.nonce}` }
  const updated: ExternalAccountRecord = { ...account, status: "PENDING_OWNERSHIP_VERIFICATION", challenge, updatedAt: rfc3339(now) }
  return next(updated, statusEvents(account, updated))
}

const verifySignature = (account: ExternalAccountRecord, verifies: (messageToSign: string) => boolean, now: number) => {
  const challenge = account.challenge
  if (challenge === undefined || challenge.method !== "WALLET_SIGNATURE")
    return refuse<ExternalAccountRecord>(conflict("NO_OUTSTANDING_CHALLENGE", "No WALLET_SIGNATURE challenge is outstanding for this account"))
  const reason = now >= challenge.expiresAtMs ? "CHALLENGE_EXPIRED" : verifies(challenge.messageToSign!) ? undefined : "SIGNATURE_INVALID"
  const updated = settle(account, reason === undefined ? "ACTIVE" : "UNVERIFIED", now)
  return reason === undefined ? next(updated, statusEvents(account, updated)) : thenFail(updated, ownershipRefused(reason), statusEvents(account, updated))
}

/** A trust change that would change nothing is refused before its SCA challenge is issued. */
export const trustChangeRefusal = (account: ExternalAccountRecord, trust: boolean): Conflict | undefined =>
  (account.trusted === true) === trust
    ? new Conflict({ message: `The account is already ${trust ? "trusted" : "not trusted"}`, details: { reason: "NO_CHANGE" } })
    : undefined

const confirmTrust = (account: ExternalAccountRecord, e: Extract<ExternalAccountEvent, { _tag: "ConfirmTrustChange" }>, now: number) => {
  const pending = account.trustChange
  if (pending === undefined || pending.trust !== e.trust)
    return refuse<ExternalAccountRecord>(
      new Conflict({ message: `No ${e.trust ? "trust" : "untrust"} challenge is pending for this account`, details: { reason: "NO_PENDING_CHALLENGE" } })
    )
  if (e.challengeId !== undefined && e.challengeId !== pending.challengeId)
    return refuse<ExternalAccountRecord>(invalidInput([{ field: "challengeId", message: "does not name the pending challenge" }]))
  // The shared SCA challenge rules (#224): expired 400, a wrong proof counted then 400, withdrawn after five.
  const challenge = { id: pending.challengeId, factor: "SMS_OTP" as const, availableFactors: ["SMS_OTP" as const], expiresAtMs: pending.expiresAtMs, sentAtMs: 0, failedAttempts: pending.failedAttempts ?? 0 }
  const answered = challengeMachine(challenge, { _tag: "Answer", proof: e.proof }, now)
  if (Either.isLeft(answered)) return refuse<ExternalAccountRecord>(answered.left)
  if (answered.right.answer !== undefined)
    return thenFail<ExternalAccountRecord>({ ...account, trustChange: { ...pending, failedAttempts: answered.right.state!.failedAttempts } }, answered.right.answer)
  const { trustChange: _done, ...rest } = account
  return next<ExternalAccountRecord>({ ...rest, trusted: e.trust, updatedAt: rfc3339(now) })
}

export const externalAccountStatus: Machine<ExternalAccountRecord, ExternalAccountEvent> = (account, event, now) => {
  switch (event._tag) {
    case "StartChallenge":
      return startChallenge(account, event, now)
    case "VerifySignature":
      return verifySignature(account, event.verifies, now)
    case "DecideLiveness": {
      if (account.challenge?.method !== "LIVENESS")
        return refuse(conflict("NO_OUTSTANDING_CHALLENGE", "No LIVENESS challenge is outstanding for this account"))
      const updated = settle(account, event.outcome === "PASSED" ? "ACTIVE" : "UNVERIFIED", now)
      return next(updated, statusEvents(account, updated))
    }
    case "StartTrustChange": {
      const refusal = trustChangeRefusal(account, event.trust)
      if (refusal !== undefined) return refuse(refusal)
      return next({ ...account, trustChange: { challengeId: event.challengeId, trust: event.trust, expiresAtMs: now + SCA_CHALLENGE_MS } })
    }
    case "ConfirmTrustChange":
      return confirmTrust(account, event, now)
  }
}
