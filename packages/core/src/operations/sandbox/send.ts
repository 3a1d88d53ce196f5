import { Clock, Effect, Either, Option } from "effect"
import { Conflict, InvalidAmount, InvalidCurrency, InvalidInput } from "../../domain/errors.ts"
import { decodeInput, invalidInput } from "../../domain/field-errors.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { SandboxSendRequest } from "../../domain/quotes/request.ts"
import { type TransactionRecord, transactionView } from "../../domain/transactions/transaction.ts"
import { Store } from "../../ports/store.ts"
import { Transactions } from "../../domain/collections.ts"
import { loadQuote, startExecution } from "../quotes/execute.ts"


const decode = decodeInput(SandboxSendRequest)

/**
 * POST /sandbox/send {quoteId, currencyCode, currencyAmount?} (DECISIONS #197): pays a real-time
 * funded quote's instructions, and the quote proceeds as an execution would. The currency must
 * be the quote's funding currency and the amount (default: the quote's) its total sending
 * amount; the reference declares no 409 here, so a quote that can no longer proceed (expired,
 * already paid) is 400 with `details.reason`. Answers the quote's transaction.
 */
export const sandboxSend = (platform: PlatformRecord, body: unknown) =>
  Effect.gen(function* () {
    const decoded = decode(body)
    if (Either.isLeft(decoded)) return yield* decoded.left
    const req = decoded.right
    const store = yield* Store
    return yield* store.transaction(
      Effect.gen(function* () {
        const quote = yield* loadQuote(platform, req.quoteId)
        if (quote.source.sourceType !== "REALTIME_FUNDING")
          return yield* invalidInput([{ field: "quoteId", message: "must be a quote funded in real time (source REALTIME_FUNDING)" }])
        if (req.currencyCode !== quote.source.currency)
          return yield* new InvalidCurrency({
            message: `The quote is funded in ${quote.source.currency}, not ${req.currencyCode}`,
            details: { currencyCode: req.currencyCode, expected: quote.source.currency }
          })
        const amount = req.currencyAmount ?? quote.totalSendingAmount
        if (amount !== quote.totalSendingAmount)
          return yield* new InvalidAmount({
            message: `The quote's instructions ask for ${quote.totalSendingAmount} ${quote.source.currency}`,
            details: { reason: "FUNDING_AMOUNT_MISMATCH", currencyAmount: amount, expected: quote.totalSendingAmount }
          })
        const now = yield* Clock.currentTimeMillis
        yield* Effect.catchIf(
          startExecution(platform, quote, now),
          (e): e is Conflict => e instanceof Conflict,
          (e) => Effect.fail(new InvalidInput({ message: e.message, details: { ...e.details, quoteId: quote.id } }))
        )
        const t = yield* store.get(Transactions, platform.id, quote.transactionId)
        // A quote's transaction is a payment, never a card transaction.
        return transactionView(Option.getOrThrow(t) as TransactionRecord)
      })
    )
  })
