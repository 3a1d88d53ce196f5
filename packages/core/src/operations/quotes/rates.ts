import { Effect } from "effect"
import { AmountOutOfRange, InvalidCurrency, TransactionSizeLimitExceeded } from "../../domain/errors.ts"
import { forReceiving, forSending, type Rate, rateFor } from "../../domain/money/exchange-rate.ts"

const noRate = (from: string, to: string) =>
  new InvalidCurrency({ message: `The sandbox does not exchange ${from} for ${to}`, details: { sendingCurrency: from, receivingCurrency: to } })

/** The rate of `now` between two currencies (400 INVALID_CURRENCY when the sandbox trades neither way). */
export const quoteRate = (from: string, to: string, now: number) => {
  const rate = rateFor(from, to, now)
  return rate === undefined ? Effect.fail(noRate(from, to)) : Effect.succeed(rate)
}

export interface Price {
  readonly totalSendingAmount: number
  readonly totalReceivingAmount: number
  readonly feesIncluded: number
  readonly exchangeRate: number
}

/**
 * A quote's amounts at `rate` from its locked side (DECISIONS #192, with the rates' own rounding,
 * #175). The amount sent must be within the corridor's bounds: below its minimum, or too small to
 * deliver one smallest unit after fees, is AMOUNT_OUT_OF_RANGE; above its maximum single
 * transaction, TRANSACTION_SIZE_LIMIT_EXCEEDED (the spec's words for that code).
 */
export const priceQuote = (rate: Rate, side: "SENDING" | "RECEIVING", amount: number) =>
  Effect.gen(function* () {
    const a = side === "SENDING" ? forSending(rate, amount) : forReceiving(rate, amount)
    const corridor = { currency: rate.sendingCurrency.code, minSendingAmount: rate.minSendingAmount, maxSendingAmount: rate.maxSendingAmount }
    if (a.sendingAmount > rate.maxSendingAmount)
      return yield* new TransactionSizeLimitExceeded({ message: `At most ${rate.maxSendingAmount} ${rate.sendingCurrency.code} can be sent in one transaction`, details: { ...corridor, sendingAmount: a.sendingAmount } })
    if (a.sendingAmount < rate.minSendingAmount || a.receivingAmount < 1 || !Number.isSafeInteger(a.sendingAmount))
      return yield* new AmountOutOfRange({ message: `The amount is outside the corridor's range (from ${rate.minSendingAmount} ${rate.sendingCurrency.code})`, details: { ...corridor, sendingAmount: a.sendingAmount } })
    return { totalSendingAmount: a.sendingAmount, totalReceivingAmount: a.receivingAmount, feesIncluded: a.fees.total, exchangeRate: rate.exchangeRate } satisfies Price
  })

/** What `amount` of one currency is worth in another at the rate of `now`, rounded down (no fees). */
export const equivalent = (amount: number, from: string, to: string, now: number) =>
  Effect.map(quoteRate(from, to, now), (rate) =>
    Math.floor((amount / rate.exchangeRate) * 10 ** (rate.receivingCurrency.decimals - rate.sendingCurrency.decimals) + 1e-9)
  )
