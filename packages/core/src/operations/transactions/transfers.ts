import { Clock, Effect, Option, Schema } from "effect"
import { Customers, InternalAccounts } from "../../domain/collections.ts"
import { optional } from "../../domain/common.ts"
import { AmountOutOfRange, InvalidCurrency, InvalidInput, TransactionSizeLimitExceeded } from "../../domain/errors.ts"
import type { ExternalAccountRecord } from "../../domain/external-accounts/record.ts"
import { decodeInput } from "../../domain/field-errors.ts"
import { IdSchema } from "../../domain/ids.ts"
import type { InternalAccountRecord } from "../../domain/internal-accounts/internal-account.ts"
import { rateFor } from "../../domain/money/exchange-rate.ts"
import { referenceNotFound } from "../../domain/not-found.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { rfc3339 } from "../../domain/time.ts"
import { type TransactionRecord, transactionView } from "../../domain/transactions/transaction.ts"
import { TRANSFER_MAX_USD_CENTS, TRAVEL_RULE_THRESHOLD_EUR_CENTS } from "../../limits.ts"
import { scaAppliesTo } from "../sca/customer.ts"
import { Store } from "../../ports/store.ts"
import { primaryIdentifier } from "../../sandbox/beneficiary.ts"
import { sandboxCurrencies } from "../../sandbox/exchange-rates.ts"
import { transferOutcome } from "../../sandbox/outcomes.ts"
import { findExternalAccount } from "../external-accounts/external-accounts.ts"
import { checkTravelRule } from "../external-accounts/travel-rule.ts"
import { newTransactionId, startTransaction } from "./outcomes.ts"
import { PaymentRail, PurposeOfPayment } from "../../domain/transactions/inputs.ts"
import { reply } from "../../domain/reply.ts"
import { idempotent, requestFingerprint } from "../common/idempotency.ts"

const Amount = Schema.Number.pipe(Schema.int({ message: () => "must be an integer amount in the currency's smallest unit" }))

export const TransferInBody = Schema.Struct({
  source: Schema.Struct({ accountId: IdSchema("ExternalAccount") }),
  destination: Schema.Struct({ accountId: IdSchema("InternalAccount") }),
  amount: Amount
})

export const TransferOutBody = Schema.Struct({
  source: Schema.Struct({ accountId: IdSchema("InternalAccount") }),
  destination: Schema.Struct({ accountId: IdSchema("ExternalAccount"), paymentRail: optional(PaymentRail) }),
  amount: Amount,
  remittanceInformation: optional(Schema.String.pipe(Schema.maxLength(80))),
  purposeOfPayment: optional(PurposeOfPayment)
})

const loadInternalAccount = (platform: PlatformRecord, id: string) =>
  Effect.gen(function* () {
    const found = yield* (yield* Store).get(InternalAccounts, platform.id, id)
    if (Option.isNone(found)) return yield* Effect.fail(referenceNotFound("InternalAccount", id))
    return found.value
  })

/**
 * The gates of a same-currency transfer (DECISIONS #187), in order: the external account belongs
 * to the internal account's owner (or the internal account is the platform's), one currency,
 * a positive amount within the single-transaction limit, the Travel Rule. Answers the amount's
 * worth in EUR cents for nothing but the Travel Rule.
 */
const checkTransfer = (internal: InternalAccountRecord, external: ExternalAccountRecord, amount: number, field: string, nowMs: number) =>
  Effect.gen(function* () {
    if (internal.customerId !== undefined && external.customerId !== internal.customerId)
      return yield* Effect.fail(
        new InvalidInput({
          message: "The external account must belong to the internal account's customer",
          details: { errors: [{ field, message: "must be an external account of the internal account's customer" }] }
        })
      )
    const currency = internal.balance.currency.code
    if (external.currency !== currency)
      return yield* Effect.fail(
        new InvalidCurrency({
          message: `A transfer moves one currency: the internal account holds ${currency}, the external account ${external.currency}`,
          details: { internalAccountCurrency: currency, externalAccountCurrency: external.currency }
        })
      )
    if (amount <= 0) return yield* Effect.fail(new AmountOutOfRange({ message: "amount must be greater than zero", details: { amount, min: 1 } }))
    const usd = rateFor(currency, "USD", nowMs)
    const usdCents = usd === undefined ? amount : (amount / 10 ** usd.sendingCurrency.decimals / usd.exchangeRate) * 100
    if (usdCents > TRANSFER_MAX_USD_CENTS) {
      return yield* Effect.fail(
        new TransactionSizeLimitExceeded({
          message: `A single transfer may move at most ${TRANSFER_MAX_USD_CENTS / 100} USD or its worth`,
          details: { amount, currency, maxUsdCents: TRANSFER_MAX_USD_CENTS }
        })
      )
    }
    const eur = rateFor(currency, "EUR", nowMs)
    const eurCents = eur === undefined ? 0 : Math.ceil((amount / 10 ** eur.sendingCurrency.decimals / eur.exchangeRate) * 100)
    yield* checkTravelRule(external, eurCents, TRAVEL_RULE_THRESHOLD_EUR_CENTS)
  })

/** Who the transaction is for: the internal account's customer, or the platform itself (the reference's filter convention). */
const ownerOf = (platform: PlatformRecord, internal: InternalAccountRecord) =>
  Effect.gen(function* () {
    if (internal.customerId === undefined) return { customerId: platform.id, platformCustomerId: platform.id }
    const customer = yield* (yield* Store).get(Customers, platform.id, internal.customerId)
    return { customerId: internal.customerId, platformCustomerId: Option.match(customer, { onNone: () => internal.customerId!, onSome: (c) => c.platformCustomerId }) }
  })

/** A payout's rail when none is asked for: the currency's own in the sandbox's market. */
const railOf = (direction: "in" | "out", currency: string): Partial<TransactionRecord> => {
  const rail = direction === "out" ? sandboxCurrencies.find((c) => c.code === currency)?.rail : undefined
  return rail === undefined ? {} : { paymentRail: rail }
}

const identifiersOf = (external: ExternalAccountRecord): ReadonlyArray<string> => {
  const identifier = primaryIdentifier(external.accountInfo)
  return identifier === undefined ? [external.id] : [external.id, identifier]
}

/**
 * One transfer: loads both accounts, checks the gates, and starts the transaction on the
 * transfer outcome of the external account's suffix, in one Store transaction. The answer is the
 * transaction as created (DECISIONS #181); an insufficient available balance fails the hold and
 * with it everything (400 INVALID_AMOUNT, nothing written).
 */
/**
 * A transfer-out carries no SCA challenge (the reference gives it none), so for a customer in an
 * SCA region it may only pay a beneficiary the customer trusted (#231's exemption); any other
 * destination is refused before anything is written, pointing at the quote flow, which carries
 * the challenge (DECISIONS #234). Without this, the deprecated route would bypass #230.
 */
const scaGateOfTransferOut = (platform: PlatformRecord, customerId: string | undefined, external: ExternalAccountRecord) =>
  Effect.gen(function* () {
    if (customerId === undefined || external.trusted === true || !(yield* scaAppliesTo(platform, customerId))) return
    const errors = [
      { field: "destination.accountId", message: "an SCA customer's transfer-out needs a trusted beneficiary; pay others with POST /quotes, which carries the SCA challenge" }
    ]
    return yield* new InvalidInput({ message: `Invalid field destination.accountId: ${errors[0]!.message}`, details: { errors, reason: "SCA_AUTHORIZATION_REQUIRED" } })
  })

const transfer = (platform: PlatformRecord, direction: "in" | "out", internalId: string, externalId: string, amount: number, extra: Partial<TransactionRecord>) =>
  Effect.gen(function* () {
    const store = yield* Store
    const view = yield* store.transaction(
      Effect.gen(function* () {
        const internal = yield* loadInternalAccount(platform, internalId)
        const external = yield* findExternalAccount(platform, externalId)
        const now = yield* Clock.currentTimeMillis
        yield* checkTransfer(internal, external, amount, direction === "out" ? "destination.accountId" : "source.accountId", now)
        if (direction === "out") yield* scaGateOfTransferOut(platform, internal.customerId, external)
        const at = rfc3339(now)
        const money = { amount, currency: internal.balance.currency }
        const internalEnd = { accountId: internal.id, currency: internal.balance.currency.code }
        const externalEnd = { accountId: external.id, currency: external.currency }
        const record: TransactionRecord = {
          id: yield* newTransactionId,
          type: direction === "out" ? "OUTGOING" : "INCOMING",
          status: "CREATED",
          direction: direction === "out" ? "DEBIT" : "CREDIT",
          source: { sourceType: "ACCOUNT", ...(direction === "out" ? internalEnd : externalEnd) },
          destination: { destinationType: "ACCOUNT", ...(direction === "out" ? externalEnd : internalEnd) },
          ...(yield* ownerOf(platform, internal)),
          sentAmount: money,
          receivedAmount: money,
          fees: 0,
          exchangeRate: 1,
          createdAt: at,
          updatedAt: at,
          ledger: { accountId: internal.id, amount, currency: internal.balance.currency.code, funds: "NONE" },
          senderIdentifiers: direction === "out" ? [internal.id] : identifiersOf(external),
          receiverIdentifiers: direction === "out" ? identifiersOf(external) : [internal.id],
          ...railOf(direction, internal.balance.currency.code),
          ...extra
        }
        const plan = transferOutcome(record.type, external.sandboxTransferSuffix)
        return transactionView((yield* startTransaction(platform.id, record, plan, now)).first)
      })
    )
    return view
  })

/**
 * POST /transfer-in: pulls money from an external account into an internal account (201). With an
 * `Idempotency-Key`, the same request answers its first 201 again and creates nothing more
 * (DECISIONS #188, the mechanism of #191; 400 on another request, the reference declares no 409).
 */
export const transferIn = (platform: PlatformRecord, body: unknown, idempotencyKey?: string) =>
  idempotent(
    platform,
    idempotencyKey,
    requestFingerprint("POST", "/transfer-in", body),
    Effect.gen(function* () {
      const input = yield* decodeInput(TransferInBody)(body)
      return reply(201, yield* transfer(platform, "in", input.destination.accountId, input.source.accountId, input.amount, {}))
    }),
    400
  )

/** POST /transfer-out: pays money from an internal account out to an external account (201); `Idempotency-Key` as transfer-in. */
export const transferOut = (platform: PlatformRecord, body: unknown, idempotencyKey?: string) =>
  idempotent(
    platform,
    idempotencyKey,
    requestFingerprint("POST", "/transfer-out", body),
    Effect.map(runTransfer(platform, "out", body), (view) => reply(201, view)),
    400
  )

/**
 * One transfer from its request body, without `Idempotency-Key`: what the two routes run, and
 * what an agent's transfer action runs when it executes (DECISIONS #379), so an agent's money
 * moves through the same gates and ledger moves as the platform's.
 */
export const runTransfer = (platform: PlatformRecord, direction: "in" | "out", body: unknown) =>
  direction === "in"
    ? Effect.flatMap(decodeInput(TransferInBody)(body), (input) => transfer(platform, "in", input.destination.accountId, input.source.accountId, input.amount, {}))
    : Effect.flatMap(decodeInput(TransferOutBody)(body), (input) => {
        const rail = input.destination.paymentRail
        return transfer(platform, "out", input.source.accountId, input.destination.accountId, input.amount, {
          ...(rail === undefined ? {} : { paymentRail: rail }),
          ...(input.remittanceInformation === undefined ? {} : { reference: input.remittanceInformation }),
          ...(input.purposeOfPayment === undefined ? {} : { purposeOfPayment: input.purposeOfPayment })
        })
      })
