import type { Currency } from "../internal-accounts/internal-account.ts"
import { EXCHANGE_RATE_LIFETIME_MS } from "../../limits.ts"
import {
  SANDBOX_FIXED_FEE_USD_CENTS,
  SANDBOX_FX_FEE_BPS,
  SANDBOX_MAX_SEND_USD_CENTS,
  SANDBOX_MIN_SEND_USD_CENTS,
  SANDBOX_RATE_DRIFT_BPS,
  type SandboxCurrency,
  sandboxCurrencies
} from "../../sandbox/exchange-rates.ts"

/**
 * Exchange rates, pure (DECISIONS #174, #175): a rate is a function of the currency pair and the
 * rate period the time falls in (`EXCHANGE_RATE_LIFETIME_MS` of engine time), so every call in
 * one period, and a quote created in it, get the same rate, and a virtual clock moves rates on.
 *
 * `exchangeRate` has the reference's meaning: sending-currency major units per receiving-currency
 * major unit, rounded to 8 significant digits; amounts are computed from that published number,
 * so a client can recompute them.
 */

const byCode = new Map(sandboxCurrencies.map((c) => [c.code, c]))

/** A currency the sandbox knows, in the reference's `Currency` shape. */
export const currencyByCode = (code: string): Currency | undefined => {
  const c = byCode.get(code)
  return c === undefined ? undefined : { code: c.code, name: c.name, symbol: c.symbol, decimals: c.decimals }
}

export const knownCurrencyCodes: ReadonlyArray<string> = sandboxCurrencies.map((c) => c.code)
/** Currencies `GET /exchange-rates` lists as destinations: those with a payout rail. */
export const payoutCurrencyCodes: ReadonlyArray<string> = sandboxCurrencies.filter((c) => c.rail !== undefined).map((c) => c.code)

export interface Rate {
  readonly sendingCurrency: Currency
  readonly receivingCurrency: Currency
  readonly exchangeRate: number
  /** Fixed fee in the sending currency's smallest unit. */
  readonly fixedFee: number
  /** Variable fee on the amount sent, in basis points. */
  readonly feeBps: number
  readonly minSendingAmount: number
  readonly maxSendingAmount: number
  readonly destinationPaymentRail?: string
  /** The rate period: from when this rate holds, and until when. */
  readonly updatedAtMs: number
  readonly expiresAtMs: number
}

/** FNV-1a: a stable 32-bit hash of a string, the drift's source (no randomness, no crypto). */
const fnv1a = (s: string): number => {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0
  return h >>> 0
}

const significant = (x: number, digits: number): number => Number(x.toPrecision(digits))

/** A US-cent amount in the currency's smallest unit, rounded up, at least 1. */
const usdCentsIn = (c: SandboxCurrency, cents: number): number => Math.max(1, Math.ceil(((cents / 100) / c.usdValue) * 10 ** c.decimals))

/** The rate between two currencies at `nowMs`, or undefined when the sandbox does not trade one of them. */
export const rateFor = (sendingCurrency: string, receivingCurrency: string, nowMs: number): Rate | undefined => {
  const s = byCode.get(sendingCurrency)
  const r = byCode.get(receivingCurrency)
  if (s === undefined || r === undefined) return undefined
  const period = Math.floor(nowMs / EXCHANGE_RATE_LIFETIME_MS)
  const pegged = s.code === r.code || (s.usdPegged === true && r.usdPegged === true)
  // Receiving units per sending unit: the currencies' values, drifted for this period, less nothing
  // else (fees are charged apart, as the reference's `fees` shows them).
  const drift = pegged ? 0 : ((fnv1a(`${s.code}>${r.code}@${period}`) / 2 ** 32) * 2 - 1) * (SANDBOX_RATE_DRIFT_BPS / 10_000)
  const receivingPerSending = (s.usdValue / r.usdValue) * (1 + drift)
  return {
    sendingCurrency: currencyByCode(s.code)!,
    receivingCurrency: currencyByCode(r.code)!,
    exchangeRate: pegged ? 1 : significant(1 / receivingPerSending, 8),
    fixedFee: usdCentsIn(s, SANDBOX_FIXED_FEE_USD_CENTS),
    feeBps: pegged ? 0 : SANDBOX_FX_FEE_BPS,
    minSendingAmount: usdCentsIn(s, SANDBOX_MIN_SEND_USD_CENTS),
    maxSendingAmount: usdCentsIn(s, SANDBOX_MAX_SEND_USD_CENTS),
    ...(r.rail === undefined ? {} : { destinationPaymentRail: r.rail }),
    updatedAtMs: period * EXCHANGE_RATE_LIFETIME_MS,
    expiresAtMs: (period + 1) * EXCHANGE_RATE_LIFETIME_MS
  }
}

/** The fees of sending `sendingAmount` (smallest unit of the sending currency). */
export const feesFor = (rate: Rate, sendingAmount: number): { readonly fixed: number; readonly total: number } => ({
  fixed: rate.fixedFee,
  total: rate.fixedFee + Math.ceil((sendingAmount * rate.feeBps) / 10_000)
})

/** What arrives when `net` (sending currency, smallest unit, fees already taken) is converted. */
const convert = (rate: Rate, net: number): number => {
  const scale = 10 ** (rate.receivingCurrency.decimals - rate.sendingCurrency.decimals)
  // The epsilon keeps 9250 from flooring to 9249 through binary rounding.
  return Math.max(0, Math.floor((net / rate.exchangeRate) * scale + 1e-9))
}

export interface Amounts {
  readonly sendingAmount: number
  readonly receivingAmount: number
  readonly fees: { readonly fixed: number; readonly total: number }
}

/** Locked sending side: fees come out of the amount sent, the rest is converted. */
export const forSending = (rate: Rate, sendingAmount: number): Amounts => {
  const fees = feesFor(rate, sendingAmount)
  return { sendingAmount, receivingAmount: convert(rate, Math.max(0, sendingAmount - fees.total)), fees }
}

/** Locked receiving side: the smallest amount sent whose conversion, after fees, is `receivingAmount` or more. */
export const forReceiving = (rate: Rate, receivingAmount: number): Amounts => {
  const scale = 10 ** (rate.sendingCurrency.decimals - rate.receivingCurrency.decimals)
  const net = Math.ceil(receivingAmount * rate.exchangeRate * scale - 1e-9)
  let sending = Math.ceil((net + rate.fixedFee) / (1 - rate.feeBps / 10_000))
  // Rounding either way may leave one unit short or spare: settle on the least that suffices.
  while (sending > 0 && forSending(rate, sending - 1).receivingAmount >= receivingAmount) sending--
  while (forSending(rate, sending).receivingAmount < receivingAmount) sending++
  return { ...forSending(rate, sending), receivingAmount }
}

/** What a receiver in this currency can be sent, in its smallest unit: the corridors' bounds converted. */
export const receivingLimits = (code: string): { readonly min: number; readonly max: number } | undefined => {
  const c = byCode.get(code)
  return c === undefined ? undefined : { min: usdCentsIn(c, SANDBOX_MIN_SEND_USD_CENTS), max: usdCentsIn(c, SANDBOX_MAX_SEND_USD_CENTS) }
}
