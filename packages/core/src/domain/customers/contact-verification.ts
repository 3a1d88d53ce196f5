import { Schema } from "effect"
import { requiresContactVerification } from "../../sandbox/contact-verification.ts"

/**
 * Contact verification (reference: `ContactVerification`, `verify-email`, `verify-phone`): a
 * customer whose jurisdiction requires it carries a status per channel, PENDING until a code the
 * customer received is confirmed, then VERIFIED. The codes themselves live beside the statuses on
 * the customer record and never in a view.
 */
export const ContactChannel = Schema.Literal("email", "phone")
export type ContactChannel = typeof ContactChannel.Type

export const ContactVerificationStatus = Schema.Literal("PENDING", "VERIFIED")
export type ContactVerificationStatus = typeof ContactVerificationStatus.Type

/** What a customer view shows: a status per required channel. */
export interface ContactVerification {
  readonly email?: ContactVerificationStatus
  readonly phone?: ContactVerificationStatus
}

/** A code sent and not yet confirmed: when it stops counting, and the wrong codes tried against it. */
export interface PendingCode {
  readonly expiresAtMs: number
  readonly failedAttempts: number
}

/** The hidden half: the pending code of each channel, if one was sent. */
export interface ContactCodes {
  readonly email?: PendingCode
  readonly phone?: PendingCode
}

/** The request body of both `/confirm` routes (reference: `ContactVerificationConfirmRequest`). */
export const ContactVerificationConfirmRequest = Schema.Struct({
  code: Schema.String.pipe(Schema.maxLength(64))
})

/** The customer field that holds each channel's address, as the request names it. */
export const contactField: Readonly<Record<ContactChannel, "email" | "phoneNumber">> = { email: "email", phone: "phoneNumber" }

/** At creation: both channels PENDING where the region requires verification, else no object at all. */
export const contactVerificationAtCreation = (region: string | undefined): { readonly contactVerification?: ContactVerification } =>
  requiresContactVerification(region) ? { contactVerification: { email: "PENDING", phone: "PENDING" } } : {}

/**
 * A changed email or phone number is a new address nobody has confirmed: its channel goes back to
 * PENDING and a code sent to the old address no longer confirms it.
 */
export const resetChangedContacts = (
  current: { readonly email?: string; readonly phoneNumber?: string; readonly contactVerification?: ContactVerification; readonly contactCodes?: ContactCodes },
  change: { readonly email?: string; readonly phoneNumber?: string }
): { readonly contactVerification?: ContactVerification; readonly contactCodes?: ContactCodes } => {
  if (current.contactVerification === undefined) return {}
  let verification = current.contactVerification
  let codes = current.contactCodes ?? {}
  for (const channel of ContactChannel.literals) {
    const field = contactField[channel]
    if (change[field] === undefined || change[field] === current[field] || verification[channel] === undefined) continue
    verification = { ...verification, [channel]: "PENDING" }
    const { [channel]: _dropped, ...rest } = codes
    codes = rest
  }
  return { contactVerification: verification, contactCodes: codes }
}

/** The channels still to verify before the customer may begin KYC (reference: both must be VERIFIED). */
export const unverifiedChannels = (cv: ContactVerification | undefined): ReadonlyArray<ContactChannel> =>
  cv === undefined ? [] : ContactChannel.literals.filter((c) => cv[c] !== "VERIFIED")
