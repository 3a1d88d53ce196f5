import { Schema } from "effect"
import { DateTimeString, NonEmpty, optional } from "../common.ts"
import { UmaAddress } from "../customers/customer.ts"
import type { Currency } from "../internal-accounts/internal-account.ts"

/**
 * UMA invitations (`/invitations`, DECISIONS #250–#254): a customer's invitation for someone to
 * join, claimed by the invitee's UMA address. Stored in the platform's scope under its code.
 * EXPIRED is never stored: it is read off the clock (`machines/invitation.ts`).
 */
export type StoredInvitationStatus = "PENDING" | "CLAIMED" | "CANCELLED"
export type InvitationStatus = StoredInvitationStatus | "EXPIRED"

export interface InvitationRecord {
  /** The invitation code, also its id in the store. */
  readonly id: string
  readonly status: StoredInvitationStatus
  readonly inviterUma: string
  readonly inviterCustomerId: string
  readonly url: string
  readonly firstName?: string
  readonly amountToSend?: { readonly amount: number; readonly currency: Currency }
  readonly expiresAt?: string
  readonly inviteeUma?: string
  readonly claimedAt?: string
  readonly cancelledAt?: string
  readonly createdAt: string
  readonly updatedAt: string
}

/** An UMA address as customers have them (`$alice@example.com`). */
export const isUmaAddress = Schema.is(UmaAddress)

export const InvitationCreate = Schema.Struct({
  inviterUma: NonEmpty(255),
  firstName: optional(NonEmpty(255)),
  amountToSend: optional(Schema.Number.pipe(Schema.int(), Schema.between(1, Number.MAX_SAFE_INTEGER))),
  expiresAt: optional(DateTimeString)
})

export const InvitationClaim = Schema.Struct({ inviteeUma: NonEmpty(255) })

/** `UmaInvitation`, with the status as of `now`. */
export const invitationView = (i: InvitationRecord, status: InvitationStatus) => ({
  code: i.id,
  createdAt: i.createdAt,
  ...(i.claimedAt === undefined ? {} : { claimedAt: i.claimedAt }),
  url: i.url,
  ...(i.expiresAt === undefined ? {} : { expiresAt: i.expiresAt }),
  inviterUma: i.inviterUma,
  ...(i.inviteeUma === undefined ? {} : { inviteeUma: i.inviteeUma }),
  status,
  ...(i.firstName === undefined ? {} : { firstName: i.firstName }),
  ...(i.amountToSend === undefined ? {} : { amountToSend: i.amountToSend })
})
