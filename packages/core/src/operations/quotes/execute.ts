import { Clock, Effect, Either, Option } from "effect"
import { Customers, Quotes, Transactions } from "../../domain/collections.ts"
import { QuoteNotFound } from "../../domain/errors.ts"
import { isId } from "../../domain/ids.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { type QuoteRecord, quoteView } from "../../domain/quotes/quote.ts"
import { rfc3339 } from "../../domain/time.ts"
import { quoteMachine, type QuoteStatus, quoteStatusAt, quoteStatusForTransaction } from "../../machines/quote.ts"
import { Store } from "../../ports/store.ts"
import { startTransaction } from "../transactions/outcomes.ts"
import { transactionOf } from "./transaction-of.ts"
import { creditUmaPayment } from "./uma-credit.ts"
import { umaIncomingOutcome } from "../../sandbox/uma-outcomes.ts"
import type { ScaFactor } from "../../domain/sca/records.ts"
import { quoteChallenge } from "./sca.ts"

export const quoteNotFound = (id: string) => new QuoteNotFound({ message: `Quote ${id} not found`, details: { id } })

/** A malformed id is simply an unknown quote. */
export const loadQuote = (platform: PlatformRecord, id: string) =>
  Effect.gen(function* () {
    const found = isId("Quote", id) ? yield* (yield* Store).get(Quotes, platform.id, id) : Option.none()
    if (Option.isNone(found)) return yield* quoteNotFound(id)
    return found.value
  })

/**
 * The quote's status now: unexecuted, read off the clock (EXPIRED past `expiresAt`); executed,
 * its transaction's (a quote is COMPLETED or FAILED when its transaction is).
 */
export const currentStatus = (platform: PlatformRecord, quote: QuoteRecord, now: number) =>
  Effect.gen(function* () {
    const status = quoteStatusAt(quote, now)
    if (status !== "PROCESSING") return status
    const t = yield* (yield* Store).get(Transactions, platform.id, quote.transactionId)
    const settled = Option.isSome(t) ? quoteStatusForTransaction(t.value.status) : undefined
    if (settled === undefined) return status
    const step = quoteMachine(quote, { _tag: "Settle", outcome: settled }, now)
    return Either.isRight(step) ? step.right.state.status : status
  })

export const quoteViewNow = (platform: PlatformRecord, quote: QuoteRecord) =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    return quoteView(quote, now, yield* currentStatus(platform, quote, now))
  })

/** GET /quotes/{quoteId}. */
export const getQuote = (platform: PlatformRecord, id: string) => Effect.flatMap(loadQuote(platform, id), (q) => quoteViewNow(platform, q))

/**
 * A UMA payment to another customer of the platform arrives on its side too (#194): an INCOMING
 * payment of the receiving amount, from the sender's address (the platform's own when the
 * platform sends), waiting for the platform's approval like any incoming UMA payment.
 */
const creditUmaPayee = (platform: PlatformRecord, quote: QuoteRecord, senderUma: string | undefined) =>
  Effect.gen(function* () {
    if (quote.umaReceiverCustomerId === undefined) return
    const payee = yield* (yield* Store).get(Customers, platform.id, quote.umaReceiverCustomerId)
    if (Option.isNone(payee) || payee.value.isDeleted) return
    yield* creditUmaPayment(platform, payee.value, {
      senderUmaAddress: senderUma ?? `$platform@${platform.umaDomain}`,
      currency: quote.receivingCurrency.code,
      amount: quote.totalReceivingAmount,
      plan: umaIncomingOutcome("SUCCESS"),
      quoteId: quote.id
    })
  })

/**
 * Executes a quote in the caller's Store transaction: the machine's Execute (409 when expired or
 * already executed), then the transaction with its outcome plan, whose first steps move the
 * ledger at once (an internal source without the money available refuses the whole execution
 * with 400 INVALID_AMOUNT, and nothing is written). Answers the quote as it stands after.
 */
export const startExecution = (platform: PlatformRecord, quote: QuoteRecord, now: number, scaFactor?: ScaFactor) =>
  Effect.gen(function* () {
    const stepped = quoteMachine(quote, { _tag: "Execute" }, now)
    if (Either.isLeft(stepped)) return yield* Effect.fail(stepped.left)
    const store = yield* Store
    // An SCA customer's execution waits for its authorization (#230); a real-time funded quote
    // was authorized when it was created.
    if (quote.authorized !== true && quote.sourceKind !== "REALTIME") {
      const challenge = yield* quoteChallenge(platform, quote, "EXECUTE", scaFactor, now)
      if (challenge !== undefined) {
        const held = quoteMachine(quote, { _tag: "RequireAuthorization" }, now)
        if (Either.isLeft(held)) return yield* Effect.fail(held.left)
        const pending: QuoteRecord = { ...quote, status: held.right.state.status, scaChallenge: challenge, authorizationFor: "EXECUTE" }
        yield* store.put(Quotes, platform.id, pending)
        return quoteView(pending, now)
      }
    }
    const customer = quote.customerId === undefined ? Option.none() : yield* store.get(Customers, platform.id, quote.customerId)
    const { created, plan } = transactionOf(platform, quote, Option.isSome(customer) ? customer.value.platformCustomerId : undefined, now)
    const { latest } = yield* startTransaction(platform.id, created, plan)
    yield* creditUmaPayee(platform, quote, Option.isSome(customer) ? customer.value.umaAddress : undefined)
    const { scaChallenge: _done, ...rest } = quote
    const executed: QuoteRecord = { ...rest, status: stepped.right.state.status as QuoteStatus, executedAt: rfc3339(now) }
    yield* store.put(Quotes, platform.id, executed)
    const settled = quoteStatusForTransaction(latest.status)
    return quoteView(executed, now, settled ?? executed.status)
  })
