import { SANDBOX_MAX_SEND_USD_CENTS, SANDBOX_MIN_SEND_USD_CENTS } from "./exchange-rates.ts"

/**
 * What `GET /config` reports as `supportedCurrencies` until the platform sets its own
 * (DECISIONS #242): USD, the currency every platform's own account is provisioned in, between the
 * sandbox corridors' smallest and largest sends, both directions, no counterparty fields asked.
 */
export const defaultSupportedCurrencies = [
  {
    currencyCode: "USD",
    minAmount: SANDBOX_MIN_SEND_USD_CENTS,
    maxAmount: SANDBOX_MAX_SEND_USD_CENTS,
    requiredCounterpartyFields: [],
    enabledTransactionTypes: ["OUTGOING", "INCOMING"]
  }
] as const
