import { Either } from "effect"
import { Unauthorized, WalletSignatureBodyMismatch, WalletSignatureInvalid, WalletSignatureMalformed } from "../domain/errors.ts"
import type { DomainError } from "../domain/envelope.ts"
import type { SignedRequestRecord } from "../domain/wallet-auth/records.ts"
import { lifetimes } from "../limits.ts"
import { type Machine, next, refuse } from "./transition.ts"

/**
 * A signed-retry request id (spec "Signed-retry challenge lifecycle"): ISSUED by the first call
 * (202) until it expires; a verified retry CONSUMES it as it runs the operation, once; a sandbox
 * processing control holds it PROCESSING first, until its hold passes and the identical re-send
 * (or reconciliation) runs it. A CONSUMED id never runs again: it answers 401, or the settled
 * reply to the byte-identical re-send when reconciliation ran it.
 */
export type SignedRequestState = SignedRequestRecord["state"]

export type SignedRequestEvent =
  | { readonly _tag: "Hold"; readonly stampSha256: string; readonly holdMs: number }
  | { readonly _tag: "Consume"; readonly settledReply?: { readonly status: number; readonly body: unknown } }

/** The retry as it arrived, for the checks. */
export interface Retry {
  readonly accountId: string
  readonly method: string
  readonly path: string
  readonly bodySha256: string
  /** The crypto check of the stamp over the record's payloadToSign, done by the caller. */
  readonly signature: (record: SignedRequestRecord) => SignatureCheck
}

/**
 * What the stamp is: the legacy literal where it is allowed (DECISIONS #19), unparseable, not a
 * signature over payloadToSign, or a valid signature by `publicKey`.
 */
export type SignatureCheck =
  | { readonly _tag: "LegacyLiteral" }
  | { readonly _tag: "Malformed"; readonly reason: string }
  | { readonly _tag: "Invalid" }
  | { readonly _tag: "Signed"; readonly publicKey: string }

export const refused = (reason: string, message: string) => new Unauthorized({ message, details: { reason } })

export const requestIdUnknown = () => refused("REQUEST_ID_UNKNOWN", "Request-Id does not name a pending request")
const alreadyUsed = () => refused("REQUEST_ID_ALREADY_USED", "Request-Id has already been used")

/** The last check, which needs the sessions: the verified key may not sign this operation. */
export const signerNotAuthorised = () =>
  new WalletSignatureInvalid({ message: "The signing key is not an active session allowed to approve this operation", details: { reason: "SIGNER_NOT_AUTHORISED" } })

/** A fresh ISSUED record, alive for the signed-retry challenge lifetime. */
export const issued = (fields: Omit<SignedRequestRecord, "state" | "expiresAtMs">, now: number): SignedRequestRecord => ({
  ...fields,
  expiresAtMs: now + lifetimes.signedRetryChallengeMs,
  state: "ISSUED"
})

/**
 * Every 401 of a retry that needs no state, in the spec's fixed order. Answers the key whose
 * authority the caller must still check against the sessions (`signerNotAuthorised` if it may
 * not), or undefined when the legacy literal stands in for a signature.
 */
export const checkRetry = (record: SignedRequestRecord, retry: Retry, now: number): Either.Either<string | undefined, DomainError> => {
  if (record.accountId !== retry.accountId || record.method !== retry.method || record.path !== retry.path)
    return Either.left(refused("REQUEST_ID_MISMATCH", "Request-Id belongs to another operation"))
  if (record.state === "CONSUMED" && record.settledReply === undefined) return Either.left(alreadyUsed())
  if (record.state === "ISSUED" && now >= record.expiresAtMs)
    return Either.left(refused("CHALLENGE_EXPIRED", "The signed-retry challenge has expired; start the request again"))
  if (record.bodySha256 !== retry.bodySha256)
    return Either.left(new WalletSignatureBodyMismatch({ message: "The retry's body differs from the request the signature was issued for", details: {} }))
  const signature = retry.signature(record)
  switch (signature._tag) {
    case "LegacyLiteral":
      return Either.right(undefined)
    case "Malformed":
      return Either.left(new WalletSignatureMalformed({ message: "Service-Wallet-Signature cannot be parsed", details: { reason: signature.reason } }))
    case "Invalid":
      return Either.left(new WalletSignatureInvalid({ message: "The signature does not verify over payloadToSign", details: {} }))
    case "Signed":
      return Either.right(signature.publicKey)
  }
}

/** What a checked retry does: run the operation (an ISSUED one may be held first), wait, or replay. */
export type RetryRoute =
  | { readonly _tag: "Run"; readonly mayHold: boolean }
  | { readonly _tag: "StillProcessing" }
  | { readonly _tag: "Replay"; readonly reply: { readonly status: number; readonly body: unknown } }

export const retryRoute = (record: SignedRequestRecord, stampSha256: string, now: number): Either.Either<RetryRoute, Unauthorized> => {
  if (record.state === "ISSUED") return Either.right({ _tag: "Run", mayHold: true })
  // A held or reconciled operation answers only the byte-identical re-send.
  if (record.stampSha256 !== stampSha256) return Either.left(alreadyUsed())
  if (record.state === "CONSUMED") return Either.right({ _tag: "Replay", reply: record.settledReply! })
  if (now < record.settleAtMs!) return Either.right({ _tag: "StillProcessing" })
  return Either.right({ _tag: "Run", mayHold: false })
}

/** Whether reconciliation may settle this record on its own now. */
export const settleable = (record: SignedRequestRecord, now: number): boolean => record.state === "PROCESSING" && (record.settleAtMs ?? 0) <= now

export const signedRequest: Machine<SignedRequestRecord, SignedRequestEvent> = (record, event, now) => {
  switch (event._tag) {
    case "Hold":
      return record.state === "ISSUED"
        ? next<SignedRequestRecord>({ ...record, state: "PROCESSING", settleAtMs: now + event.holdMs, stampSha256: event.stampSha256 })
        : refuse(alreadyUsed())
    case "Consume":
      if (record.state === "CONSUMED") return refuse(alreadyUsed())
      return next<SignedRequestRecord>(event.settledReply === undefined ? { ...record, state: "CONSUMED" } : { ...record, state: "CONSUMED", settledReply: event.settledReply })
  }
}
