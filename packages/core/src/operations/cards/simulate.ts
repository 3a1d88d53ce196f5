import { Clock, Effect, Either, Option } from "effect"
import { Customers, Transactions } from "../../domain/collections.ts"
import type { CardRecord } from "../../domain/cards/card.ts"
import type { CardTransactionRecord } from "../../domain/cards/card-transaction.ts"
import { SimAdvice, SimAuthorization, SimBalanceInquiry, SimClearing, SimReturn, SimTransactionRef } from "../../domain/cards/inputs.ts"
import type { DomainError } from "../../domain/envelope.ts"
import { decodeInput, invalidInput } from "../../domain/field-errors.ts"
import { isId, makeId } from "../../domain/ids.ts"
import { currencies } from "../../domain/internal-accounts/internal-account.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { reply } from "../../domain/reply.ts"
import { DueSteps } from "../../domain/transactions/due-step.ts"
import { CARD_PULL_DELAY_MS } from "../../limits.ts"
import { cardRefusal, type CardTransactionEvent, cardTransactionStep, type Step, start, type StartKind } from "../../machines/card-transaction.ts"
import { Ids } from "../../ports/ids.ts"
import { Notifier } from "../../ports/notifier.ts"
import { SERVER_SCOPE, Store } from "../../ports/store.ts"
import { decisioningOutcome } from "../../sandbox/cards.ts"
import { runDueStepsOf } from "../transactions/due-runner.ts"
import { transactionNotFound } from "../transactions/transactions.ts"
import { availableOf, postCardMoves } from "./ledger.ts"
import { loadCard } from "./load.ts"

/**
 * The ten sandbox card simulators (DECISIONS #206–#210). Each answers 202
 * `{issuerTransactionToken}`, plus `cardTransactionId` when a card transaction was created or
 * changed and `declineReason` when Authorization Decisioning declined; the transaction, its
 * ledger moves and its CARD_TRANSACTION.* webhook commit in one Store transaction.
 */

const newToken = Effect.map(Effect.flatMap(Ids, (ids) => ids.uuid), (u) => `sandbox_txn_${u.replaceAll("-", "")}`)

/** Saves a step's outcome: the transaction, its ledger moves, its webhooks, a pending pull's confirmation. */
const commit = (platform: PlatformRecord, step: Step, token: string) =>
  Effect.gen(function* () {
    if (step._tag === "Declined") return reply(202, { issuerTransactionToken: token, declineReason: step.reason })
    const store = yield* Store
    const t = step.state
    yield* store.put(Transactions, platform.id, t)
    yield* postCardMoves(platform.id, t.accountId, t.id, step.moves)
    const notifier = yield* Notifier
    for (const e of step.emit) yield* notifier.publish(platform.id, e)
    if (step.pendingPull === true)
      yield* store.put(DueSteps, SERVER_SCOPE, {
        id: yield* (yield* Ids).uuid,
        scope: platform.id,
        transactionId: t.id,
        dueAtMs: (yield* Clock.currentTimeMillis) + CARD_PULL_DELAY_MS,
        kind: "CARD_PULL_CONFIRMATION"
      })
    return reply(202, { issuerTransactionToken: token, cardTransactionId: t.id })
  })

const platformCustomerIdOf = (platform: PlatformRecord, card: CardRecord) =>
  Effect.map(Effect.flatMap(Store, (s) => s.get(Customers, platform.id, card.cardholderId)), (c) => (Option.isSome(c) ? c.value.platformCustomerId : card.cardholderId))

/** The authorization family: authorization, credit and financial (single-message) ones, credit advice. */
export const simulateStart = (kind: StartKind) => (platform: PlatformRecord, cardId: string, body: unknown) =>
  Effect.gen(function* () {
    const input = yield* decodeInput(SimAuthorization)(body)
    // A card whose activation is due is ACTIVE by now.
    yield* runDueStepsOf(platform.id, cardId)
    const store = yield* Store
    return yield* store.transaction(
      Effect.gen(function* () {
        const card = yield* loadCard(platform, cardId)
        if (input.currency.code !== card.currency)
          return yield* Effect.fail(invalidInput([{ field: "currency.code", message: `must be the card's currency, ${card.currency}` }]))
        const sources = yield* Effect.forEach(card.fundingSources, (id) => Effect.map(availableOf(platform.id, id), (available) => ({ id, available })))
        const token = yield* newToken
        const step = start(
          {
            kind,
            id: makeId("CardTransaction", yield* (yield* Ids).uuid),
            token,
            card,
            platformCustomerId: yield* platformCustomerIdOf(platform, card),
            amount: input.amount,
            currency: currencies[card.currency] ?? { code: card.currency, name: card.currency, symbol: card.currency, decimals: 2 },
            merchant: input.merchant,
            outcome: decisioningOutcome(input.merchant.descriptor),
            sources
          },
          yield* Clock.currentTimeMillis
        )
        return yield* commit(platform, step, token)
      })
    )
  })

/** A balance inquiry: a 0-amount authorization, approved or declined, that records nothing (DECISIONS #209). */
export const simulateBalanceInquiry = (platform: PlatformRecord, cardId: string, body: unknown) =>
  Effect.gen(function* () {
    const input = yield* decodeInput(SimBalanceInquiry)(body)
    yield* runDueStepsOf(platform.id, cardId)
    const card = yield* loadCard(platform, cardId)
    const token = yield* newToken
    const outcome = decisioningOutcome(input.merchant.descriptor)
    const reason = cardRefusal(card) ?? (outcome === "CARD_PAUSED" || outcome === "INSUFFICIENT_FUNDS" ? outcome : undefined)
    return reply(202, reason === undefined ? { issuerTransactionToken: token } : { issuerTransactionToken: token, declineReason: reason })
  })

/** The card transaction a simulator names: one of this card's (404 TRANSACTION_NOT_FOUND otherwise). */
const loadCardTransaction = (platform: PlatformRecord, card: CardRecord, id: string) =>
  Effect.gen(function* () {
    const found = isId("CardTransaction", id) ? yield* (yield* Store).get(Transactions, platform.id, id) : Option.none()
    if (Option.isNone(found) || found.value.type !== "CARD" || found.value.cardId !== card.id) return yield* Effect.fail(transactionNotFound(id))
    return found.value
  })

/** A simulator on an existing card transaction: its due pull confirmation first, then the machine's step. */
const onTransaction = (
  platform: PlatformRecord,
  cardId: string,
  transactionId: string,
  event: (t: CardTransactionRecord, available: number) => CardTransactionEvent
) =>
  Effect.gen(function* () {
    if (isId("CardTransaction", transactionId)) yield* runDueStepsOf(platform.id, transactionId)
    const store = yield* Store
    return yield* store.transaction(
      Effect.gen(function* () {
        const card = yield* loadCard(platform, cardId)
        const t = yield* loadCardTransaction(platform, card, transactionId)
        const step = cardTransactionStep(t, event(t, yield* availableOf(platform.id, t.accountId)), yield* Clock.currentTimeMillis)
        if (Either.isLeft(step)) return yield* Effect.fail(step.left as DomainError)
        return yield* commit(platform, step.right, yield* newToken)
      })
    )
  })

export const simulateClearing = (platform: PlatformRecord, cardId: string, body: unknown) =>
  Effect.gen(function* () {
    const input = yield* decodeInput(SimClearing)(body)
    return yield* onTransaction(platform, cardId, input.cardTransactionId, (_, available) => ({ _tag: "Clear", amount: input.amount, available }))
  })

export const simulateReturn = (platform: PlatformRecord, cardId: string, body: unknown) =>
  Effect.gen(function* () {
    const input = yield* decodeInput(SimReturn)(body)
    return yield* onTransaction(platform, cardId, input.cardTransactionId, () => ({ _tag: "Return", amount: input.amount }))
  })

export const simulateAuthorizationAdvice = (platform: PlatformRecord, cardId: string, body: unknown) =>
  Effect.gen(function* () {
    const input = yield* decodeInput(SimAdvice)(body)
    return yield* onTransaction(platform, cardId, input.cardTransactionId, (_, available) => ({ _tag: "Advise", amount: input.amount, available }))
  })

export const simulateReturnReversal = (platform: PlatformRecord, cardId: string, body: unknown) =>
  Effect.gen(function* () {
    const input = yield* decodeInput(SimTransactionRef)(body)
    return yield* onTransaction(platform, cardId, input.cardTransactionId, (_, available) => ({ _tag: "ReverseReturn", available }))
  })
