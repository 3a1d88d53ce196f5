/**
 * The sandbox's currency market (DECISIONS #174): what one major unit of each currency is worth
 * in US dollars, the rail a payout in it takes, and the fees the sandbox charges. Rates drift
 * deterministically around these values from one rate period to the next (`rateFor`).
 */
export interface SandboxCurrency {
  readonly code: string
  readonly name: string
  readonly symbol: string
  readonly decimals: number
  /** US dollars per major unit. */
  readonly usdValue: number
  /** The rail payouts in this currency use; none: not a payout currency of `GET /exchange-rates`. */
  readonly rail?: string
  /** Pegged to the US dollar: converts 1:1 with USD and with every other pegged currency. */
  readonly usdPegged?: true
}

export const sandboxCurrencies: ReadonlyArray<SandboxCurrency> = [
  { code: "USD", name: "United States Dollar", symbol: "$", decimals: 2, usdValue: 1, rail: "ACH", usdPegged: true },
  { code: "USDB", name: "USDB", symbol: "$", decimals: 6, usdValue: 1, usdPegged: true },
  { code: "USDC", name: "USD Coin", symbol: "USDC", decimals: 6, usdValue: 1, usdPegged: true },
  { code: "EUR", name: "Euro", symbol: "€", decimals: 2, usdValue: 1.08, rail: "SEPA_INSTANT" },
  { code: "GBP", name: "British Pound", symbol: "£", decimals: 2, usdValue: 1.27, rail: "FASTER_PAYMENTS" },
  { code: "MXN", name: "Mexican Peso", symbol: "$", decimals: 2, usdValue: 0.058, rail: "SPEI" },
  { code: "BRL", name: "Brazilian Real", symbol: "R$", decimals: 2, usdValue: 0.18, rail: "PIX" },
  { code: "INR", name: "Indian Rupee", symbol: "₹", decimals: 2, usdValue: 0.012, rail: "UPI" },
  { code: "PHP", name: "Philippine Peso", symbol: "₱", decimals: 2, usdValue: 0.017, rail: "INSTAPAY" },
  { code: "CAD", name: "Canadian Dollar", symbol: "$", decimals: 2, usdValue: 0.73, rail: "BANK_TRANSFER" },
  { code: "SGD", name: "Singapore Dollar", symbol: "S$", decimals: 2, usdValue: 0.74, rail: "PAYNOW" },
  { code: "COP", name: "Colombian Peso", symbol: "$", decimals: 2, usdValue: 0.00025, rail: "ACH_COLOMBIA" },
  { code: "NGN", name: "Nigerian Naira", symbol: "₦", decimals: 2, usdValue: 0.00065, rail: "BANK_TRANSFER" },
  { code: "KES", name: "Kenyan Shilling", symbol: "KSh", decimals: 2, usdValue: 0.0077, rail: "MOBILE_MONEY" },
  { code: "BTC", name: "Bitcoin", symbol: "₿", decimals: 8, usdValue: 65_000 }
]

/** Fees of every corridor, in US cents converted into the sending currency: a fixed part... */
export const SANDBOX_FIXED_FEE_USD_CENTS = 10
/** ...and, between currencies that are not pegged to each other, this share of the amount (basis points). */
export const SANDBOX_FX_FEE_BPS = 50
/** How far a rate drifts from its currency values, either way, from one period to the next (basis points). */
export const SANDBOX_RATE_DRIFT_BPS = 25
/** The smallest and largest amount a corridor sends, in US cents converted into the sending currency. */
export const SANDBOX_MIN_SEND_USD_CENTS = 100
export const SANDBOX_MAX_SEND_USD_CENTS = 10_000_000

/** `GET /exchange-rates`' amount when none is given (the reference's default), in the sending currency's smallest unit. */
export const DEFAULT_RATE_SENDING_AMOUNT = 10_000
