import { Effect, Either } from "effect"
import { Cards } from "../../domain/collections.ts"
import type { CardRecord } from "../../domain/cards/card.ts"
import type { DomainError } from "../../domain/envelope.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { cardStep, type CardEvent } from "../../machines/card.ts"
import { Notifier } from "../../ports/notifier.ts"
import { Store } from "../../ports/store.ts"

// Apart from the card endpoints (cards.ts), which run the outcome steps due on a card: a
// customer's deletion closes its cards without the money-moving modules those reach (DECISIONS #506).

/** Steps a card through its machine and saves it with its webhooks, in the caller's Store transaction. */
export const stepCard = (platform: PlatformRecord, card: CardRecord, event: CardEvent, now: number) =>
  Effect.gen(function* () {
    const t = cardStep(card, event, now)
    if (Either.isLeft(t)) return yield* Effect.fail(t.left as DomainError)
    yield* (yield* Store).put(Cards, platform.id, t.right.state)
    const notifier = yield* Notifier
    for (const e of t.right.emit) yield* notifier.publish(platform.id, e)
    return t.right.state
  })

/**
 * A deleted customer's cards stop working with it: each ACTIVE or FROZEN card is closed as a
 * PATCH to CLOSED would close it (CLOSED_BY_PLATFORM, funding sources detached,
 * `CARD.STATE_CHANGE`), in the deletion's transaction. PROCESSING cards cannot transact and stay.
 */
export const closeCardsOfDeletedHolder = (platform: PlatformRecord, customerId: string, now: number) =>
  Effect.gen(function* () {
    const cards = yield* (yield* Store).findBy(Cards, platform.id, "cardholderId", customerId)
    for (const card of cards)
      if (card.state === "ACTIVE" || card.state === "FROZEN") yield* stepCard(platform, card, { _tag: "Update", state: "CLOSED" }, now)
  })

