import { Clock, Effect, Either, Schema } from "effect"
import { Cards } from "../../domain/collections.ts"
import { type CardRecord, cardView } from "../../domain/cards/card.ts"
import { CardCreate, CardListFilters, CardUpdate } from "../../domain/cards/inputs.ts"
import type { DomainError } from "../../domain/envelope.ts"
import { CardholderKycNotApproved } from "../../domain/errors.ts"
import { decodeInput, invalidInput } from "../../domain/field-errors.ts"
import { makeId, uuidOf } from "../../domain/ids.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { rfc3339 } from "../../domain/time.ts"
import { DueSteps } from "../../domain/transactions/due-step.ts"
import { CARD_ACTIVATION_DELAY_MS, CARD_VALIDITY_YEARS } from "../../limits.ts"
import { cardStep } from "../../machines/card.ts"
import { Ids } from "../../ports/ids.ts"
import { SERVER_SCOPE, Store } from "../../ports/store.ts"
import { provisioningOutcome } from "../../sandbox/cards.ts"
import { equal, listPage, pageParams } from "../common/listing.ts"
import { runDueStepsOf } from "../transactions/due-runner.ts"
import { checkFundingSources, isKycApproved, loadCard, loadCardholder, numbersOf } from "./load.ts"
import { stepCard } from "./step.ts"

const decodeCreate = decodeInput(CardCreate)
const decodeUpdate = decodeInput(CardUpdate)

/**
 * POST /cards: a virtual card for a KYC-approved customer, bound to some of its internal accounts.
 * The sandbox issuer decides at once by the platformCardId's suffix (else the cardholder id's):
 * ACTIVE, CLOSED (ISSUER_REJECTED), PROCESSING for good, or PROCESSING and ACTIVE 30 s later on the
 * engine's clock (DECISIONS #202, #203). The answer is the card where it stands after that.
 */
export const createCard = (platform: PlatformRecord, body: unknown) =>
  Effect.gen(function* () {
    const input = yield* decodeCreate(body)
    const store = yield* Store
    return yield* store.transaction(
      Effect.gen(function* () {
        const holder = yield* loadCardholder(platform, input.cardholderId)
        if (!isKycApproved(holder))
          return yield* Effect.fail(
            new CardholderKycNotApproved({
              message: `Customer ${holder.id} has not passed KYC`,
              details: { cardholderId: holder.id, kycStatus: (holder.customerType === "BUSINESS" ? holder.kybStatus : holder.kycStatus) ?? "UNVERIFIED" }
            })
          )
        const { currency } = yield* checkFundingSources(platform, holder.id, input.fundingSources)
        const nowMs = yield* Clock.currentTimeMillis
        const now = rfc3339(nowMs)
        const uuid = yield* (yield* Ids).uuid
        const id = makeId("Card", uuid)
        const issued = new Date(nowMs)
        const card: CardRecord = {
          id,
          cardholderId: holder.id,
          // System-generated when omitted, as platformCustomerId is.
          platformCardId: input.platformCardId ?? `card-${uuidOf(id)}`,
          state: "PROCESSING",
          stateReason: null,
          brand: "VISA",
          form: "VIRTUAL",
          last4: (yield* numbersOf({ id })).pan.slice(-4),
          expMonth: issued.getUTCMonth() + 1,
          expYear: issued.getUTCFullYear() + CARD_VALIDITY_YEARS,
          fundingSources: input.fundingSources,
          maxSpendPerTransaction: input.maxSpendPerTransaction ?? null,
          currency,
          createdAt: now,
          updatedAt: now
        }
        yield* store.put(Cards, platform.id, card)
        switch (provisioningOutcome(input.platformCardId, holder.id)) {
          case "ACTIVE":
            return cardView(yield* stepCard(platform, card, { _tag: "Provision", outcome: "ACTIVE" }, nowMs))
          case "ISSUER_REJECTED":
            return cardView(yield* stepCard(platform, card, { _tag: "Provision", outcome: "REJECTED" }, nowMs))
          case "DELAYED_ACTIVATION":
            yield* store.put(DueSteps, SERVER_SCOPE, {
              id: yield* (yield* Ids).uuid,
              scope: platform.id,
              transactionId: id,
              dueAtMs: nowMs + CARD_ACTIVATION_DELAY_MS,
              kind: "CARD_ACTIVATION"
            })
            return cardView(card)
          case "STAYS_PROCESSING":
            return cardView(card)
        }
      })
    )
  })

/** GET /cards/{id}: where the card stands on the engine's clock now (a due activation applied first). */
export const getCard = (platform: PlatformRecord, id: string) =>
  Effect.gen(function* () {
    yield* runDueStepsOf(platform.id, id)
    return cardView(yield* loadCard(platform, id))
  })

/**
 * PATCH /cards/{id}: state (the card machine's transitions), funding sources (checked as at
 * creation, in the card's currency) and the per-transaction limit, in one Store transaction
 * with the CARD.STATE_CHANGE and CARD.FUNDING_SOURCE_CHANGE webhooks.
 */
export const updateCard = (platform: PlatformRecord, id: string, body: unknown) =>
  Effect.gen(function* () {
    const input = yield* decodeUpdate(body)
    if (input.state === undefined && input.fundingSources === undefined && input.maxSpendPerTransaction === undefined)
      return yield* Effect.fail(invalidInput([{ field: "body", message: "must supply at least one of state, fundingSources, maxSpendPerTransaction" }]))
    yield* runDueStepsOf(platform.id, id)
    const store = yield* Store
    return yield* store.transaction(
      Effect.gen(function* () {
        const card = yield* loadCard(platform, id)
        const now = yield* Clock.currentTimeMillis
        // The machine answers first (409 on a CLOSED card), then the sources are checked.
        const probe = cardStep(card, { _tag: "Update", ...input }, now)
        if (Either.isLeft(probe)) return yield* Effect.fail(probe.left as DomainError)
        if (input.fundingSources !== undefined) yield* checkFundingSources(platform, card.cardholderId, input.fundingSources, card.currency)
        return cardView(yield* stepCard(platform, card, { _tag: "Update", ...input }, now))
      })
    )
  })

export const CardListQuery = Schema.Struct({ ...CardListFilters, ...pageParams })

/** GET /cards: the platform's cards, newest first unless `sortOrder=asc`, by the reference's filters. */
export const listCards = (platform: PlatformRecord, query: unknown) =>
  listPage({
    collection: Cards,
    scope: platform.id,
    querySchema: CardListQuery,
    query,
    where: (q) => [equal("cardholderId", q.cardholderId), equal("accountId", q.accountId), equal("platformCardId", q.platformCardId), equal("state", q.state)],
    view: cardView,
    descending: (q) => q.sortOrder !== "asc"
  })
