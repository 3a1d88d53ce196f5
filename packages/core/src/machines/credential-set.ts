import { Either } from "effect"
import {
  EmailOtpCredentialAlreadyExists,
  type InvalidInput,
  PasskeyCredentialAlreadyExists,
  SmsOtpCredentialAlreadyExists
} from "../domain/errors.ts"
import type { DomainError } from "../domain/envelope.ts"
import { invalidInput } from "../domain/field-errors.ts"
import type { AuthMethodRecord } from "../domain/wallet-auth/auth-method.ts"
import type { SessionRecord } from "../domain/wallet-auth/session.ts"
import { session } from "./session.ts"
import { type Machine, next, refuse } from "./transition.ts"

/**
 * The credentials of one wallet account, with the sessions they opened (spec "Credential
 * rules"): at most one EMAIL_OTP and one SMS_OTP, distinct passkeys and provider identities;
 * the last credential cannot be revoked; revoking one ends every session it opened.
 */
export interface CredentialSet {
  readonly credentials: ReadonlyArray<AuthMethodRecord>
  readonly sessions: ReadonlyArray<SessionRecord>
}

/** What a new credential is, before it has an id. */
export type NewCredential = Pick<AuthMethodRecord, "type" | "credentialId" | "oauth">

export type CredentialSetEvent = { readonly _tag: "Add"; readonly credential: AuthMethodRecord } | { readonly _tag: "Revoke"; readonly credentialId: string }

/** Why `c` may not join `existing`, in the rules' order; undefined if it may. */
export const uniquenessRefusal = (existing: ReadonlyArray<AuthMethodRecord>, c: NewCredential): DomainError | undefined => {
  if (c.type === "EMAIL_OTP" && existing.some((e) => e.type === "EMAIL_OTP"))
    return new EmailOtpCredentialAlreadyExists({ message: "The account already has an EMAIL_OTP credential", details: {} })
  if (c.type === "SMS_OTP" && existing.some((e) => e.type === "SMS_OTP"))
    return new SmsOtpCredentialAlreadyExists({ message: "The account already has an SMS_OTP credential", details: {} })
  if (c.type === "PASSKEY" && existing.some((e) => e.credentialId === c.credentialId))
    return new PasskeyCredentialAlreadyExists({ message: "This passkey is already registered on the account", details: {} })
  if (c.type === "OAUTH" && existing.some((e) => e.oauth !== undefined && e.oauth.iss === c.oauth!.iss && e.oauth.aud === c.oauth!.aud && e.oauth.sub === c.oauth!.sub))
    return invalidInput([{ field: "oidcToken", message: "this provider identity is already a credential of the account" }])
  return undefined
}

/** An account always keeps at least one credential. */
export const lastCredentialRefusal = (credentials: ReadonlyArray<AuthMethodRecord>): InvalidInput | undefined =>
  credentials.length <= 1
    ? invalidInput([{ field: "id", message: "is the account's only credential; add another before revoking it" }], "An account always keeps at least one credential")
    : undefined

/** The sessions a revocation of `credentialId` ends. */
export const endedBy = (sessions: ReadonlyArray<SessionRecord>, credentialId: string): ReadonlyArray<SessionRecord> =>
  sessions.filter((s) => s.authMethodId === credentialId && s.revokedAt === undefined)

export const credentialSet: Machine<CredentialSet, CredentialSetEvent> = (set, event, now) => {
  switch (event._tag) {
    case "Add": {
      const refusal = uniquenessRefusal(set.credentials, event.credential)
      return refusal !== undefined ? refuse(refusal) : next({ ...set, credentials: [...set.credentials, event.credential] })
    }
    case "Revoke": {
      const refusal = lastCredentialRefusal(set.credentials)
      if (refusal !== undefined) return refuse(refusal)
      const sessions = set.sessions.map((s) => {
        if (s.authMethodId !== event.credentialId) return s
        const ended = session(s, { _tag: "CredentialRevoked" }, now)
        return Either.isRight(ended) ? ended.right.state : s
      })
      return next({ credentials: set.credentials.filter((c) => c.id !== event.credentialId), sessions })
    }
  }
}
