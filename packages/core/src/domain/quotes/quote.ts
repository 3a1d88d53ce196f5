import type { Currency } from "../internal-accounts/internal-account.ts"
import type { FundingInstruction } from "../../sandbox/funding-instructions.ts"
import type { QuoteStatus } from "../../machines/quote.ts"
import type { SandboxUmaOutcome } from "../../sandbox/uma-receivers.ts"
import { quoteStatusAt } from "../../machines/quote.ts"
import { rfc3339 } from "../time.ts"
import type { ScaChallenge } from "../sca/records.ts"
import { scaChallengeView } from "../../machines/sca-challenge.ts"
import { SCA_PASSKEY_RP_ID } from "../../sandbox/sca.ts"
import type { QuoteDestination, QuoteSource } from "./request.ts"

/**
 * Where the money of a quote comes from and goes to, resolved at creation: the request says only
 * `accountId`; which kind of account it names decides how execution moves money.
 */
export type QuoteSourceKind = "INTERNAL" | "EXTERNAL" | "REALTIME"
export type QuoteDestinationKind = "INTERNAL" | "EXTERNAL" | "UMA"

export interface QuoteRecord {
  readonly id: string
  /** The stored status; the status shown is `quoteStatusAt` (expiry is read off the clock). */
  readonly status: QuoteStatus
  readonly createdAt: string
  readonly expiresAtMs: number
  /** The customer on whose behalf the money moves (absent: the platform itself). */
  readonly customerId?: string
  readonly source: QuoteSource
  readonly sourceKind: QuoteSourceKind
  /** EMBEDDED_WALLET sources execute through a signed retry. */
  readonly sourceAccountType?: string
  readonly destination: QuoteDestination
  readonly destinationKind: QuoteDestinationKind
  readonly lockedCurrencySide: "SENDING" | "RECEIVING"
  readonly sendingCurrency: Currency
  readonly receivingCurrency: Currency
  readonly totalSendingAmount: number
  readonly totalReceivingAmount: number
  readonly exchangeRate: number
  readonly feesIncluded: number
  /** The transaction the quote creates when executed (reserved at creation: the reference requires it). */
  readonly transactionId: string
  readonly paymentInstructions?: ReadonlyArray<FundingInstruction>
  readonly lookupId?: string
  readonly description?: string
  readonly remittanceInformation?: string
  readonly purposeOfPayment?: string
  /** The destination account's sandbox outcome suffix (last three digits of its identifier). */
  readonly outcomeSuffix?: string
  /** A sandbox UMA receiver's outcome (from the lookup), for a UMA destination. */
  readonly umaOutcome?: SandboxUmaOutcome
  /** A UMA destination held by a customer of this platform: credited when the quote executes. */
  readonly umaReceiverCustomerId?: string
  readonly executedAt?: string
  /** While PENDING_AUTHORIZATION: the SCA challenge to satisfy (DECISIONS #230). */
  readonly scaChallenge?: ScaChallenge
  /** What the authorization releases: the execution, or (real-time funding) the payment instructions. */
  readonly authorizationFor?: "EXECUTE" | "FUNDING"
  /** The SCA authorization was given: executing it issues no second challenge. */
  readonly authorized?: boolean
}

/** WebAuthn request options of a PASSKEY challenge: the assertion signs the UTF-8 of its hex string. */
const passkeyOptionsOf = (c: ScaChallenge) =>
  c.passkeyChallenge === undefined ? undefined : { challenge: Buffer.from(c.passkeyChallenge, "utf8").toString("base64url"), rpId: SCA_PASSKEY_RP_ID, userVerification: "preferred" }

/** The resource as the API shows it (reference `Quote`), at `now` and with its transaction's status if executed. */
export const quoteView = (q: QuoteRecord, now: number, status: QuoteStatus = quoteStatusAt(q, now)) => ({
  id: q.id,
  status,
  createdAt: q.createdAt,
  expiresAt: rfc3339(q.expiresAtMs),
  source: q.source,
  destination: q.destination,
  sendingCurrency: q.sendingCurrency,
  receivingCurrency: q.receivingCurrency,
  totalSendingAmount: q.totalSendingAmount,
  totalReceivingAmount: q.totalReceivingAmount,
  exchangeRate: q.exchangeRate,
  feesIncluded: q.feesIncluded,
  platformFeesIncluded: 0,
  transactionId: q.transactionId,
  // Real-time funding instructions are withheld until an SCA authorization releases them.
  ...(q.paymentInstructions === undefined || (q.authorizationFor === "FUNDING" && q.authorized !== true) ? {} : { paymentInstructions: q.paymentInstructions }),
  ...(status === "PENDING_AUTHORIZATION" && q.scaChallenge !== undefined ? { scaChallenge: scaChallengeView(q.scaChallenge, passkeyOptionsOf(q.scaChallenge)) } : {})
})
export type QuoteView = ReturnType<typeof quoteView>
