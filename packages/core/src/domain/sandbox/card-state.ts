import { Schema } from "effect"
import { DateTimeString, NonEmpty, optional } from "../common.ts"
import { IdSchema } from "../ids.ts"
import { CardState as CardStateLiteral, CardStateReason } from "../cards/card.ts"
import { CardTransactionStatus } from "../cards/card-transaction.ts"
import { lazily } from "./lazily.ts"

/**
 * What an imported card or card transaction must satisfy: the fields their indexes, views and
 * machines read. A card left PROCESSING by a delayed activation has no due step after an import:
 * it stays PROCESSING, as an imported payment stays where it is (DECISIONS #212).
 */
export const cardStates = lazily(() => {
  const Amount = Schema.Number.pipe(Schema.int(), Schema.nonNegative())
  const stamps = { createdAt: DateTimeString, updatedAt: DateTimeString }
  const Summary = Schema.Struct({ count: Amount, totalAmount: Schema.Number.pipe(Schema.int()) })

  const CardRecordState = Schema.Struct({
    id: IdSchema("Card"),
    cardholderId: IdSchema("Customer"),
    platformCardId: NonEmpty(128),
    state: CardStateLiteral,
    stateReason: Schema.NullOr(CardStateReason),
    brand: Schema.Literal("VISA", "MASTERCARD"),
    form: Schema.Literal("VIRTUAL"),
    last4: Schema.String.pipe(Schema.pattern(/^\d{4}$/)),
    expMonth: Schema.Number.pipe(Schema.int(), Schema.between(1, 12)),
    expYear: Schema.Number.pipe(Schema.int()),
    fundingSources: Schema.Array(IdSchema("InternalAccount")),
    maxSpendPerTransaction: Schema.NullOr(Schema.Number.pipe(Schema.int(), Schema.positive())),
    currency: NonEmpty(16),
    ...stamps
  })

  const CardTransactionState = Schema.Struct({
    type: Schema.Literal("CARD"),
    id: IdSchema("CardTransaction"),
    cardId: IdSchema("Card"),
    customerId: IdSchema("Customer"),
    platformCustomerId: Schema.String,
    issuerTransactionToken: Schema.String,
    status: CardTransactionStatus,
    direction: Schema.Literal("DEBIT", "CREDIT"),
    merchant: Schema.Struct({ descriptor: NonEmpty(256), mcc: optional(Schema.String), country: optional(Schema.String) }),
    currency: Schema.Struct({ code: Schema.String, name: Schema.String, symbol: Schema.String, decimals: Amount }),
    authorizedAmount: Amount,
    settledAmount: Amount,
    refundedAmount: Amount,
    accountId: IdSchema("InternalAccount"),
    pullSummary: Schema.Struct({ ...Summary.fields, pendingCount: Amount }),
    refundSummary: Summary,
    settlementSummary: Summary,
    authorizedAt: DateTimeString,
    lastEventAt: DateTimeString,
    held: Amount,
    senderIdentifiers: Schema.Array(Schema.String),
    receiverIdentifiers: Schema.Array(Schema.String),
    ...stamps
  })
  return { CardRecordState, CardTransactionState }
})
