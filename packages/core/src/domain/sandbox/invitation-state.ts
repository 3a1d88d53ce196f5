import { Schema } from "effect"
import { DateTimeString, NonEmpty, optional } from "../common.ts"
import { Invitations } from "../collections.ts"
import { IdSchema } from "../ids.ts"
import { lazily } from "./lazily.ts"

/**
 * Invitations in a state document (DECISIONS #254): the fields the machine and the view read,
 * with their types; like every record, checked and never rewritten.
 */
export const invitationStates = lazily(() => {
  const Currency = Schema.Struct({ code: NonEmpty(16), name: Schema.String, symbol: Schema.String, decimals: Schema.Number.pipe(Schema.int(), Schema.between(0, 18)) })

  const InvitationState = Schema.Struct({
    id: Schema.String.pipe(Schema.pattern(/^[0-9a-f]{4,64}$/, { message: () => "must be an invitation code (hex digits)" })),
    status: Schema.Literal("PENDING", "CLAIMED", "CANCELLED"),
    inviterUma: NonEmpty(255),
    inviterCustomerId: IdSchema("Customer"),
    url: NonEmpty(2048),
    firstName: optional(NonEmpty(255)),
    amountToSend: optional(Schema.Struct({ amount: Schema.Number.pipe(Schema.int(), Schema.positive()), currency: Currency })),
    expiresAt: optional(DateTimeString),
    inviteeUma: optional(NonEmpty(255)),
    claimedAt: optional(DateTimeString),
    cancelledAt: optional(DateTimeString),
    createdAt: DateTimeString,
    updatedAt: DateTimeString
  })
  return { InvitationState }
})

export const invitationStateCollections = [{ collection: Invitations, schema: () => invitationStates().InvitationState }] as const
