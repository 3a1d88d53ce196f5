import { Effect, Either, Option } from "effect"
import { Cards, Transactions } from "../../domain/collections.ts"
import type { CardDueStep } from "../../domain/transactions/due-step.ts"
import { cardStep } from "../../machines/card.ts"
import { cardTransactionStep } from "../../machines/card-transaction.ts"
import { Notifier } from "../../ports/notifier.ts"
import { Store } from "../../ports/store.ts"

/**
 * Applies a card's due sandbox outcome, inside the due runner's Store transaction (the step is
 * already consumed): the issuer activates a card left PROCESSING, or a pending pull is confirmed.
 * A card or transaction that moved on meanwhile (closed, reset, imported) is left as it is.
 */
export const applyCardDueStep = (d: CardDueStep) =>
  Effect.gen(function* () {
    const store = yield* Store
    const notifier = yield* Notifier
    const at = d.dueAtMs
    if (d.kind === "CARD_ACTIVATION") {
      const card = yield* store.get(Cards, d.scope, d.transactionId)
      if (Option.isNone(card)) return false
      const t = cardStep(card.value, { _tag: "Provision", outcome: "ACTIVE" }, at)
      if (Either.isLeft(t)) return false
      yield* store.put(Cards, d.scope, t.right.state)
      for (const e of t.right.emit) yield* notifier.publish(d.scope, e)
      return true
    }
    const found = yield* store.get(Transactions, d.scope, d.transactionId)
    if (Option.isNone(found) || found.value.type !== "CARD") return false
    const step = cardTransactionStep(found.value, { _tag: "ConfirmPull" }, at)
    if (Either.isLeft(step) || step.right._tag !== "Changed") return false
    yield* store.put(Transactions, d.scope, step.right.state)
    for (const e of step.right.emit) yield* notifier.publish(d.scope, e)
    return true
  })
