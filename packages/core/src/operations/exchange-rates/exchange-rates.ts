import { Clock, Effect, Schema } from "effect"
import { CurrencyCode, optional } from "../../domain/common.ts"
import { decodeInput } from "../../domain/field-errors.ts"
import { feesFor, forSending, knownCurrencyCodes, payoutCurrencyCodes, type Rate, rateFor } from "../../domain/money/exchange-rate.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { rfc3339 } from "../../domain/time.ts"
import { DEFAULT_RATE_SENDING_AMOUNT } from "../../sandbox/exchange-rates.ts"

/**
 * `GET /exchange-rates` (DECISIONS #174–#176): the sandbox's rates for every corridor, or those
 * the filters name, with the amount received for `sendingAmount` after fees. A filter naming a
 * currency the sandbox does not trade matches nothing (an empty list); a malformed one is 400.
 */
export const ExchangeRatesQuery = Schema.Struct({
  sourceCurrency: optional(CurrencyCode),
  // Repeated (`&destinationCurrency=INR&destinationCurrency=GBP`) or one value; commas also separate.
  destinationCurrency: optional(Schema.Union(CurrencyCode, Schema.Array(CurrencyCode))),
  sendingAmount: optional(
    Schema.NumberFromString.pipe(
      Schema.int({ message: () => "must be an integer" }),
      Schema.between(0, Number.MAX_SAFE_INTEGER, { message: () => `must be an integer from 0 to ${Number.MAX_SAFE_INTEGER}` })
    )
  )
})

/** The reference's `ExchangeRate` for one corridor and amount. */
export const exchangeRateView = (rate: Rate, sendingAmount: number) => ({
  sourceCurrency: rate.sendingCurrency,
  sendingAmount,
  minSendingAmount: rate.minSendingAmount,
  maxSendingAmount: rate.maxSendingAmount,
  destinationCurrency: rate.receivingCurrency,
  destinationPaymentRail: rate.destinationPaymentRail!,
  receivingAmount: forSending(rate, sendingAmount).receivingAmount,
  exchangeRate: rate.exchangeRate,
  fees: feesFor(rate, sendingAmount),
  updatedAt: rfc3339(rate.updatedAtMs)
})

const destinations = (given: string | ReadonlyArray<string> | undefined): ReadonlyArray<string> =>
  given === undefined ? payoutCurrencyCodes : (typeof given === "string" ? [given] : given).filter((c) => payoutCurrencyCodes.includes(c))

export const listExchangeRates = (_platform: PlatformRecord, query: unknown) =>
  Effect.gen(function* () {
    const q = yield* decodeInput(ExchangeRatesQuery)(query)
    const now = yield* Clock.currentTimeMillis
    const sendingAmount = q.sendingAmount ?? DEFAULT_RATE_SENDING_AMOUNT
    const sources = q.sourceCurrency === undefined ? knownCurrencyCodes : [q.sourceCurrency]
    const data = []
    for (const source of sources)
      for (const destination of destinations(q.destinationCurrency)) {
        const rate = rateFor(source, destination, now)
        if (rate !== undefined) data.push(exchangeRateView(rate, sendingAmount))
      }
    return { data }
  })
