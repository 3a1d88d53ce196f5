import { Schema } from "effect"
import { DateTimeString, NonEmpty, optional } from "../common.ts"
import { IdempotencyKeys, Quotes } from "../collections.ts"
import { IdSchema } from "../ids.ts"
import { QuoteDestination, QuoteSource } from "../quotes/request.ts"
import { quoteStatuses } from "../../machines/quote.ts"
import { scaStates } from "./sca-state.ts"
import { lazily } from "./lazily.ts"

/**
 * Quotes and idempotency keys in a state document (DECISIONS #199): the fields execution, the
 * view and the replay read, with their types; like every record, checked and never rewritten.
 */

export const quoteStates = lazily(() => {
  const { ScaChallengeState } = scaStates()
  const Millis = Schema.Number.pipe(Schema.int(), Schema.between(0, 8.64e15, { message: () => "must be a time in ms since 1970" }))
  const Amount = Schema.Number.pipe(Schema.int(), Schema.between(0, Number.MAX_SAFE_INTEGER))
  const Currency = Schema.Struct({ code: NonEmpty(16), name: Schema.String, symbol: Schema.String, decimals: Schema.Number.pipe(Schema.int(), Schema.between(0, 18)) })

  const QuoteState = Schema.Struct({
    id: IdSchema("Quote"),
    status: Schema.Literal(...quoteStatuses),
    createdAt: DateTimeString,
    expiresAtMs: Millis,
    customerId: optional(IdSchema("Customer")),
    source: QuoteSource,
    sourceKind: Schema.Literal("INTERNAL", "EXTERNAL", "REALTIME"),
    sourceAccountType: optional(Schema.String),
    destination: QuoteDestination,
    destinationKind: Schema.Literal("INTERNAL", "EXTERNAL", "UMA"),
    lockedCurrencySide: Schema.Literal("SENDING", "RECEIVING"),
    sendingCurrency: Currency,
    receivingCurrency: Currency,
    totalSendingAmount: Amount,
    totalReceivingAmount: Amount,
    exchangeRate: Schema.Number.pipe(Schema.positive()),
    feesIncluded: Amount,
    transactionId: IdSchema("Transaction"),
    paymentInstructions: optional(Schema.Array(Schema.Struct({ accountOrWalletInfo: Schema.Struct({ accountType: Schema.String }) }))),
    outcomeSuffix: optional(Schema.String),
    umaOutcome: optional(Schema.Literal("SUCCESS", "PENDING_LONG", "FAIL_COMPLIANCE")),
    umaReceiverCustomerId: optional(IdSchema("Customer")),
    executedAt: optional(DateTimeString),
    scaChallenge: optional(ScaChallengeState),
    authorizationFor: optional(Schema.Literal("EXECUTE", "FUNDING")),
    authorized: optional(Schema.Boolean)
  })

  const IdempotencyKeyState = Schema.Struct({
    id: NonEmpty(255),
    fingerprint: Schema.String.pipe(Schema.pattern(/^[0-9a-f]{64}$/)),
    status: Schema.Number.pipe(Schema.int(), Schema.between(200, 299)),
    body: Schema.Unknown,
    createdAt: DateTimeString
  })
  return { QuoteState, IdempotencyKeyState }
})

export const quoteStateCollections = [
  { collection: Quotes, schema: () => quoteStates().QuoteState },
  { collection: IdempotencyKeys, schema: () => quoteStates().IdempotencyKeyState }
] as const
