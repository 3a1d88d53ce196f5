import { Schema } from "effect"

/** The reference's `CardState`: PROCESSING while the issuer provisions, CLOSED for good. */
export const CardState = Schema.Literal("PENDING_KYC", "PROCESSING", "ACTIVE", "FROZEN", "CLOSED")
export type CardState = typeof CardState.Type

/** The reference's `CardStateReason`, present on CLOSED cards (and rejected provisioning). */
export const CardStateReason = Schema.Literal("ISSUER_REJECTED", "CLOSED_BY_PLATFORM", "CLOSED_BY_GRID")
export type CardStateReason = typeof CardStateReason.Type

/**
 * A card as stored. The PAN and CVV are never stored: they are derived from the card's id and a
 * server secret when a reveal asks for them (`sandbox/cards.ts`), so only `last4` is kept.
 */
export interface CardRecord {
  readonly id: string
  readonly cardholderId: string
  readonly platformCardId: string
  readonly state: CardState
  readonly stateReason: CardStateReason | null
  readonly brand: "VISA" | "MASTERCARD"
  readonly form: "VIRTUAL"
  readonly last4: string
  readonly expMonth: number
  readonly expYear: number
  readonly fundingSources: ReadonlyArray<string>
  readonly maxSpendPerTransaction: number | null
  readonly currency: string
  readonly createdAt: string
  readonly updatedAt: string
}

/** The reference's `Card`, in its field order. */
export const cardView = (c: CardRecord) => ({
  id: c.id,
  cardholderId: c.cardholderId,
  platformCardId: c.platformCardId,
  state: c.state,
  stateReason: c.stateReason,
  brand: c.brand,
  form: c.form,
  last4: c.last4,
  expMonth: c.expMonth,
  expYear: c.expYear,
  fundingSources: c.fundingSources,
  maxSpendPerTransaction: c.maxSpendPerTransaction,
  currency: c.currency,
  createdAt: c.createdAt,
  updatedAt: c.updatedAt
})

export type CardView = ReturnType<typeof cardView>
