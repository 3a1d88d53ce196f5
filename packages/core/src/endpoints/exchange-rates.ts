import { ExchangeRatesQuery, listExchangeRates } from "../operations/exchange-rates/exchange-rates.ts"
import { endpoint } from "./define.ts"

/** Exchange rates: the sandbox's deterministic rates, stable for a rate period of engine time (DECISIONS #174). */
export const exchangeRateEndpoints = [
  endpoint({
    group: "exchange-rates",
    name: "list",
    method: "GET",
    path: "/exchange-rates",
    operationId: "getExchangeRates",
    status: 200,
    summary: "The sandbox's exchange rates per corridor, fees included, each stable for five minutes of engine time",
    query: ExchangeRatesQuery,
    repeatedQuery: ["destinationCurrency"],
    run: (r) => listExchangeRates(r.platform, r.query)
  })
]
