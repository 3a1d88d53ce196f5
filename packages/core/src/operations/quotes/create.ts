import { Clock, Effect, Either } from "effect"
import { Quotes } from "../../domain/collections.ts"
import { InvalidCurrency, ReferenceNotFound, SelfPayment, UserNotFound } from "../../domain/errors.ts"
import { decodeInput, type FieldError, invalidInput } from "../../domain/field-errors.ts"
import { makeId } from "../../domain/ids.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { type QuoteRecord, quoteView } from "../../domain/quotes/quote.ts"
import { QuoteRequest } from "../../domain/quotes/request.ts"
import { reply } from "../../domain/reply.ts"
import { rfc3339 } from "../../domain/time.ts"
import { QUOTE_LIFETIME_MS } from "../../limits.ts"
import { Ids } from "../../ports/ids.ts"
import { Store } from "../../ports/store.ts"
import { identifierSuffix, primaryIdentifier } from "../../sandbox/beneficiary.ts"
import { fundingInstructions, realtimeFundingCurrencies } from "../../sandbox/funding-instructions.ts"
import { idempotent, requestFingerprint } from "../common/idempotency.ts"
import { checkTravelRule } from "../external-accounts/travel-rule.ts"
import { loadCustomer } from "../customers/customers.ts"
import { startExecution } from "./execute.ts"
import { checkScaFactor, quoteChallenge } from "./sca.ts"
import { equivalent, priceQuote, quoteRate } from "./rates.ts"
import { accountIdProblems, currencyOfAccount, resolveAccount, type ResolvedAccount } from "./resolve.ts"
import { resolveUmaDestination } from "./resolve.ts"
import type { SandboxUmaOutcome } from "../../sandbox/uma-receivers.ts"

const decode = decodeInput(QuoteRequest)

/** Rules across fields the schema cannot state, as field errors listed with the schema's. */
const crossFieldProblems = (body: unknown): ReadonlyArray<FieldError> => {
  const b = body as { destination?: { destinationType?: unknown }; lookupId?: unknown; source?: { sourceType?: unknown }; immediatelyExecute?: unknown }
  return [
    ...(b?.destination?.destinationType === "UMA_ADDRESS" && b.lookupId === undefined ? [{ field: "lookupId", message: "is required for a UMA_ADDRESS destination (GET /receiver/uma/{address} answers it)" }] : []),
    ...(b?.source?.sourceType === "REALTIME_FUNDING" && b.immediatelyExecute === true
      ? [{ field: "immediatelyExecute", message: "is not allowed with a REALTIME_FUNDING source: it executes when the funds arrive" }]
      : [])
  ]
}

const decodeRequest = (body: unknown) => {
  const decoded = decode(body)
  const extra = crossFieldProblems(body)
  if (Either.isLeft(decoded)) {
    const errors = [...((decoded.left.details?.["errors"] as ReadonlyArray<FieldError>) ?? []), ...extra]
    return Either.left(invalidInput(errors))
  }
  const problems = [...extra, ...accountIdProblems(decoded.right.source, decoded.right.destination)]
  return problems.length > 0 ? Either.left(invalidInput(problems)) : Either.right(decoded.right)
}

/**
 * The reference declares no 404 for `POST /quotes`: an id that names nothing of this platform is
 * a bad field of the request (400 on that field, DECISIONS #193).
 */
const asField = <A, E, R>(field: string, effect: Effect.Effect<A, E, R>) =>
  Effect.catchIf(
    effect,
    (e): e is E & (ReferenceNotFound | UserNotFound) => e instanceof ReferenceNotFound || e instanceof UserNotFound,
    () => Effect.fail(invalidInput([{ field, message: "names nothing of this platform" }]))
  )

const sourceCustomerMismatch = () => invalidInput([{ field: "source.customerId", message: "must be the customer owning the source account" }])

/** POST /quotes (DECISIONS #190–#195): price a transfer at the rate of now, and execute it at once if asked. */
export const createQuote = (platform: PlatformRecord, body: unknown, idempotencyKey?: string) =>
  idempotent(platform, idempotencyKey, requestFingerprint("POST", "/quotes", body), buildQuote(platform, body), 400)

const buildQuote = (platform: PlatformRecord, body: unknown) =>
  Effect.gen(function* () {
    const request = decodeRequest(body)
    if (Either.isLeft(request)) return yield* request.left
    const req = request.right
    yield* checkScaFactor(req.scaFactor)
    const now = yield* Clock.currentTimeMillis

    // Where the money comes from.
    let source: ResolvedAccount | undefined
    let customerId: string | undefined
    let sendingCode: string
    if (req.source.sourceType === "ACCOUNT") {
      source = yield* asField("source.accountId", resolveAccount(platform, req.source.accountId))
      const owner = source.account.customerId
      if (req.source.customerId !== undefined && owner !== undefined && req.source.customerId !== owner) return yield* sourceCustomerMismatch()
      if (req.source.customerId !== undefined) yield* asField("source.customerId", loadCustomer(platform, req.source.customerId))
      customerId = owner ?? req.source.customerId
      sendingCode = currencyOfAccount(source)
      if (req.immediatelyExecute === true && source.kind === "INTERNAL" && source.account.type === "EMBEDDED_WALLET")
        return yield* invalidInput([{ field: "immediatelyExecute", message: "is not allowed from an EMBEDDED_WALLET: execute with a wallet signature" }])
    } else {
      if (req.source.customerId !== undefined) yield* asField("source.customerId", loadCustomer(platform, req.source.customerId))
      customerId = req.source.customerId
      sendingCode = req.source.currency
      if (!realtimeFundingCurrencies.includes(sendingCode))
        return yield* new InvalidCurrency({ message: `Real-time funding in ${sendingCode} is not offered`, details: { currency: sendingCode, supported: realtimeFundingCurrencies } })
    }

    // Where it goes.
    let destination: ResolvedAccount | undefined
    let receivingCode: string
    let umaOutcome: SandboxUmaOutcome | undefined
    let umaReceiverCustomerId: string | undefined
    if (req.destination.destinationType === "ACCOUNT") {
      if (req.source.sourceType === "ACCOUNT" && req.source.accountId === req.destination.accountId)
        return yield* new SelfPayment({ message: "The source and the destination are the same account", details: { accountId: req.destination.accountId } })
      destination = yield* asField("destination.accountId", resolveAccount(platform, req.destination.accountId))
      receivingCode = currencyOfAccount(destination)
    } else {
      const uma = yield* resolveUmaDestination(platform, req.lookupId!, req.destination, customerId)
      receivingCode = uma.currency
      umaOutcome = uma.outcome
      umaReceiverCustomerId = uma.receiverCustomerId
    }
    if (source?.kind === "EXTERNAL" && destination?.kind !== "INTERNAL")
      return yield* invalidInput([{ field: "destination.accountId", message: "must be an internal account when the source is an external account (a pull)" }])

    // The price, at the rate of now; the Travel Rule on what it is worth in euros.
    const rate = yield* quoteRate(sendingCode, receivingCode, now)
    const price = yield* priceQuote(rate, req.lockedCurrencySide, req.lockedCurrencyAmount)
    const eurCents = yield* equivalent(price.totalSendingAmount, sendingCode, "EUR", now)
    for (const side of [source, destination]) if (side?.kind === "EXTERNAL") yield* checkTravelRule(side.account, eurCents)

    const ids = yield* Ids
    const id = makeId("Quote", yield* ids.uuid)
    const suffixOf = (r: ResolvedAccount | undefined) => (r?.kind === "EXTERNAL" ? identifierSuffix(primaryIdentifier(r.account.accountInfo) ?? "") : undefined)
    const outcomeSuffix = source?.kind === "EXTERNAL" ? suffixOf(source) : suffixOf(destination)
    const quote: QuoteRecord = {
      id,
      status: "PENDING",
      createdAt: rfc3339(now),
      expiresAtMs: now + QUOTE_LIFETIME_MS,
      ...(customerId === undefined ? {} : { customerId }),
      source: req.source,
      sourceKind: source === undefined ? "REALTIME" : source.kind,
      ...(source?.kind === "INTERNAL" ? { sourceAccountType: source.account.type } : {}),
      destination: req.destination,
      destinationKind: destination === undefined ? "UMA" : destination.kind,
      lockedCurrencySide: req.lockedCurrencySide,
      sendingCurrency: rate.sendingCurrency,
      receivingCurrency: rate.receivingCurrency,
      ...price,
      transactionId: makeId("Transaction", yield* ids.uuid),
      ...(req.source.sourceType === "REALTIME_FUNDING" ? { paymentInstructions: fundingInstructions(sendingCode, id)! } : {}),
      ...(req.lookupId === undefined ? {} : { lookupId: req.lookupId }),
      ...(req.description === undefined ? {} : { description: req.description }),
      ...(req.remittanceInformation === undefined ? {} : { remittanceInformation: req.remittanceInformation }),
      ...(req.purposeOfPayment === undefined ? {} : { purposeOfPayment: req.purposeOfPayment }),
      ...(outcomeSuffix === undefined ? {} : { outcomeSuffix }),
      ...(umaOutcome === undefined ? {} : { umaOutcome }),
      ...(umaReceiverCustomerId === undefined ? {} : { umaReceiverCustomerId })
    }
    const store = yield* Store
    return yield* store.transaction(
      Effect.gen(function* () {
        // An SCA customer's real-time funded quote is held for authorization, its funding
        // instructions withheld until then: 202 (#230).
        if (req.source.sourceType === "REALTIME_FUNDING") {
          const challenge = yield* quoteChallenge(platform, quote, "FUNDING", req.scaFactor, now)
          if (challenge !== undefined) {
            const held: QuoteRecord = { ...quote, status: "PENDING_AUTHORIZATION", scaChallenge: challenge, authorizationFor: "FUNDING" }
            yield* store.put(Quotes, platform.id, held)
            return reply(202, quoteView(held, now))
          }
        }
        yield* store.put(Quotes, platform.id, quote)
        const view = req.immediatelyExecute === true ? yield* startExecution(platform, quote, now, req.scaFactor) : undefined
        return reply(201, view ?? quoteView(quote, now))
      })
    )
  })

