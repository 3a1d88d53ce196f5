import { InvalidInput, InvitationAlreadyClaimed, InvitationCancelled, InvalidUmaAddress } from "../domain/errors.ts"
import { type InvitationRecord, type InvitationStatus, invitationView } from "../domain/invitations/invitation.ts"
import { rfc3339 } from "../domain/time.ts"
import { type Machine, next, refuse } from "./transition.ts"

/**
 * An UMA invitation (DECISIONS #251): PENDING until it is claimed (CLAIMED, with the invitee's
 * address and the time, emitting INVITATION.CLAIMED) or cancelled (CANCELLED). A PENDING
 * invitation whose `expiresAt` has passed is EXPIRED, read off the clock like a quote's (#190):
 * nothing needs to run for it to expire. CLAIMED, CANCELLED and EXPIRED are final.
 */
export type InvitationEvent = { readonly _tag: "Claim"; readonly inviteeUma: string } | { readonly _tag: "Cancel" }

/** The status an invitation has at `now`. */
export const invitationStatus = (i: Pick<InvitationRecord, "status" | "expiresAt">, now: number): InvitationStatus =>
  i.status === "PENDING" && i.expiresAt !== undefined && Date.parse(i.expiresAt) <= now ? "EXPIRED" : i.status

/** Why a final invitation refuses any event: the reference's code for claimed and cancelled ones. */
const refusal = (i: InvitationRecord, status: InvitationStatus) =>
  status === "CLAIMED"
    ? new InvitationAlreadyClaimed({ message: `Invitation ${i.id} was already claimed`, details: { code: i.id, status } })
    : status === "CANCELLED"
      ? new InvitationCancelled({ message: `Invitation ${i.id} was cancelled`, details: { code: i.id, status } })
      : // The reference names no code for an expired invitation: the generic 400, with the reason.
        new InvalidInput({ message: `Invitation ${i.id} expired at ${i.expiresAt}`, details: { code: i.id, status, reason: "INVITATION_EXPIRED" } })

export const invitation: Machine<InvitationRecord, InvitationEvent> = (i, event, now) => {
  const status = invitationStatus(i, now)
  if (status !== "PENDING") return refuse(refusal(i, status))
  const at = rfc3339(now)
  if (event._tag === "Cancel") return next({ ...i, status: "CANCELLED", cancelledAt: at, updatedAt: at })
  // An inviter cannot take up its own invitation: that would pay nobody new.
  if (event.inviteeUma.toLowerCase() === i.inviterUma.toLowerCase())
    return refuse(
      new InvalidUmaAddress({
        message: "The invitee cannot be the inviter",
        details: { errors: [{ field: "inviteeUma", message: "must not be the inviter's UMA address" }] }
      })
    )
  const claimed: InvitationRecord = { ...i, status: "CLAIMED", inviteeUma: event.inviteeUma, claimedAt: at, updatedAt: at }
  return next(claimed, [{ type: "INVITATION.CLAIMED", resourceId: i.id, data: invitationView(claimed, "CLAIMED") }])
}
