import { Either } from "effect"
import { type ReferenceNotFound, Unauthorized } from "../domain/errors.ts"
import { referenceNotFound } from "../domain/not-found.ts"
import { isActiveSession, type SessionRecord } from "../domain/wallet-auth/session.ts"
import { rfc3339 } from "../domain/time.ts"
import { lifetimes } from "../limits.ts"
import { type Machine, next, refuse } from "./transition.ts"

/**
 * A wallet session: ACTIVE from its opening until it is revoked or its lifetime passes, then
 * ENDED for good (REVOKED or EXPIRED). Revoking an ended session is 404, safe to repeat
 * (notes §7.3); a refresh opens a new session and leaves this one to its own expiry. Revoking
 * the credential that opened it ends it too (see credential-set.ts).
 */
export type SessionStatus = "ACTIVE" | "REVOKED" | "EXPIRED"

export type SessionEvent = { readonly _tag: "Revoke" } | { readonly _tag: "CredentialRevoked" }

export const sessionStatus = (s: SessionRecord, now: number): SessionStatus =>
  s.revokedAt !== undefined ? "REVOKED" : isActiveSession(s, now) ? "ACTIVE" : "EXPIRED"

export const sessionNotFound = (id: string) => referenceNotFound("Session", id)

/** The session if it is active now; an ended one is not found. */
export const requireActive = (s: SessionRecord, now: number): Either.Either<SessionRecord, ReferenceNotFound> =>
  isActiveSession(s, now) ? Either.right(s) : Either.left(sessionNotFound(s.id))

/** A refresh's first call on an ended session. */
export const refreshRefusal = (s: SessionRecord, now: number): Unauthorized | undefined =>
  isActiveSession(s, now) ? undefined : new Unauthorized({ message: "The session is no longer active", details: { reason: "SESSION_INACTIVE" } })

/** What opening a session names; its lifetime and timestamps come from the machine. */
export type SessionOpening = Pick<SessionRecord, "id" | "accountId" | "authMethodId" | "type" | "nickname" | "publicKey">

export const openedSession = (o: SessionOpening, now: number): SessionRecord => ({
  ...o,
  expiresAtMs: now + lifetimes.sessionMs,
  createdAt: rfc3339(now),
  updatedAt: rfc3339(now)
})

const revoked = (s: SessionRecord, now: number): SessionRecord => ({ ...s, revokedAt: rfc3339(now), updatedAt: rfc3339(now) })

export const session: Machine<SessionRecord, SessionEvent> = (s, event, now) => {
  switch (event._tag) {
    case "Revoke": {
      const active = requireActive(s, now)
      return Either.isLeft(active) ? refuse(active.left) : next(revoked(s, now))
    }
    // Every session the credential opened that was not revoked yet, expired ones included.
    case "CredentialRevoked":
      return next(s.revokedAt === undefined ? revoked(s, now) : s)
  }
}
