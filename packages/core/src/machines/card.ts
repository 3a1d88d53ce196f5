import { CardAlreadyClosed, CardNotMutable, InvalidStateTransition } from "../domain/errors.ts"
import { type CardRecord, type CardState, cardView } from "../domain/cards/card.ts"
import { invalidInput } from "../domain/field-errors.ts"
import { rfc3339 } from "../domain/time.ts"
import { type Emitted, type Machine, next, refuse } from "./transition.ts"

/**
 * A card's lifecycle (spec, "Card state"; DECISIONS #201). The issuer moves a PROCESSING card to
 * ACTIVE or rejects it (CLOSED, ISSUER_REJECTED); the platform's PATCH moves ACTIVE ⇄ FROZEN and
 * ACTIVE or FROZEN → CLOSED (CLOSED_BY_PLATFORM), and replaces funding sources and the spending
 * limit of any card not CLOSED. A CLOSED card never changes again.
 */
export type CardEvent =
  | { readonly _tag: "Provision"; readonly outcome: "ACTIVE" | "REJECTED" }
  | {
      readonly _tag: "Update"
      readonly state?: "ACTIVE" | "FROZEN" | "CLOSED"
      readonly fundingSources?: ReadonlyArray<string>
      readonly maxSpendPerTransaction?: number | null
    }

export const STATE_CHANGE = "CARD.STATE_CHANGE"
export const FUNDING_SOURCE_CHANGE = "CARD.FUNDING_SOURCE_CHANGE"

/** The transitions a PATCH may request, from → to (the spec's table, row by row). */
export const patchTransitions: ReadonlyArray<readonly [CardState, CardState]> = [
  ["ACTIVE", "FROZEN"],
  ["FROZEN", "ACTIVE"],
  ["ACTIVE", "CLOSED"],
  ["FROZEN", "CLOSED"]
]

export const canRequest = (from: CardState, to: CardState): boolean => patchTransitions.some(([f, t]) => f === from && t === to)

const emitted = (type: string, card: CardRecord): Emitted => ({ type, resourceId: card.id, data: cardView(card) })

export const cardStep: Machine<CardRecord, CardEvent> = (card, event, now) => {
  const at = rfc3339(now)
  if (event._tag === "Provision") {
    if (card.state !== "PROCESSING")
      return refuse(new InvalidStateTransition({ message: `Card ${card.id} is ${card.state}, not PROCESSING`, details: { cardId: card.id, state: card.state } }))
    const out: CardRecord =
      event.outcome === "ACTIVE"
        ? { ...card, state: "ACTIVE", stateReason: null, updatedAt: at }
        : { ...card, state: "CLOSED", stateReason: "ISSUER_REJECTED", updatedAt: at }
    return next(out, [emitted(STATE_CHANGE, out)])
  }
  if (card.state === "CLOSED") {
    return event.state === "CLOSED"
      ? refuse(new CardAlreadyClosed({ message: `Card ${card.id} is already CLOSED`, details: { cardId: card.id, state: card.state } }))
      : refuse(new CardNotMutable({ message: `Card ${card.id} is CLOSED and cannot be changed`, details: { cardId: card.id, state: card.state } }))
  }
  if (event.state === "CLOSED") {
    const combined = [
      ...(event.fundingSources === undefined ? [] : [{ field: "fundingSources", message: "cannot be supplied alongside state CLOSED" }]),
      ...(event.maxSpendPerTransaction === undefined ? [] : [{ field: "maxSpendPerTransaction", message: "cannot be supplied alongside state CLOSED" }])
    ]
    if (combined.length > 0) return refuse(invalidInput(combined))
  }
  if (event.state !== undefined && !canRequest(card.state, event.state)) {
    return refuse(
      new InvalidStateTransition({
        message: `Card ${card.id} cannot move from ${card.state} to ${event.state}`,
        details: { cardId: card.id, state: card.state, requestedState: event.state }
      })
    )
  }
  const closing = event.state === "CLOSED"
  const out: CardRecord = {
    ...card,
    ...(event.state === undefined ? {} : { state: event.state, stateReason: closing ? "CLOSED_BY_PLATFORM" : null }),
    // Closing detaches the bindings (the reference's PATCH description).
    ...(closing ? { fundingSources: [] } : event.fundingSources === undefined ? {} : { fundingSources: event.fundingSources }),
    ...(event.maxSpendPerTransaction === undefined ? {} : { maxSpendPerTransaction: event.maxSpendPerTransaction }),
    updatedAt: at
  }
  return next(out, [
    ...(event.state === undefined ? [] : [emitted(STATE_CHANGE, out)]),
    ...(event.fundingSources === undefined ? [] : [emitted(FUNDING_SOURCE_CHANGE, out)])
  ])
}
