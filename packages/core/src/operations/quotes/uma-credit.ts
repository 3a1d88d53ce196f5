import { Clock, Effect } from "effect"
import { ExternalAccounts, InternalAccounts } from "../../domain/collections.ts"
import type { CustomerRecord } from "../../domain/customers/customer.ts"
import { UserNotFound } from "../../domain/errors.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { rfc3339 } from "../../domain/time.ts"
import type { OutcomePlan } from "../../domain/transactions/outcome-plan.ts"
import type { TransactionRecord } from "../../domain/transactions/transaction.ts"
import { Store } from "../../ports/store.ts"
import { newTransactionId, startTransaction } from "../transactions/outcomes.ts"
import { equivalent, quoteRate } from "./rates.ts"

/**
 * Where an incoming UMA payment lands (spec: the customer's default UMA deposit external account
 * when one is set, else its primary internal account, the first one it was given).
 */
export const depositAccount = (platform: PlatformRecord, customer: CustomerRecord) =>
  Effect.gen(function* () {
    const store = yield* Store
    const external = yield* store.findBy(ExternalAccounts, platform.id, "defaultUma", customer.id)
    if (external.length > 0) return { kind: "EXTERNAL" as const, id: external[0]!.id, currency: external[0]!.currency }
    const internal = yield* store.findBy(InternalAccounts, platform.id, "customerId", customer.id)
    if (internal.length === 0) return yield* new UserNotFound({ message: `Customer ${customer.id} has no account to receive into`, details: { customerId: customer.id } })
    return { kind: "INTERNAL" as const, id: internal[0]!.id, currency: internal[0]!.balance.currency.code }
  })

/** An incoming UMA payment: who sent it, in what currency and amount, and what it does. */
export interface UmaPayment {
  readonly senderUmaAddress: string
  readonly currency: string
  readonly amount: number
  readonly plan: OutcomePlan
  readonly quoteId?: string
}

/**
 * Credits a customer with an incoming UMA payment (DECISIONS #194, #198), in the caller's Store
 * transaction: an INCOMING transaction into its deposit account with the `INCOMING_PAYMENT.*`
 * webhooks; into an internal account a pending credit converted at the rate of now into the
 * account's currency, available once the payment completes. Answers the transaction as it stands.
 */
export const creditUmaPayment = (platform: PlatformRecord, customer: CustomerRecord, payment: UmaPayment) =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const rate = yield* quoteRate(payment.currency, payment.currency, now)
    const into = yield* depositAccount(platform, customer)
    const credited = yield* equivalent(payment.amount, payment.currency, into.currency, now)
    const at = rfc3339(now)
    const created: TransactionRecord = {
      id: yield* newTransactionId,
      type: "INCOMING",
      status: "CREATED",
      direction: "CREDIT",
      source: { sourceType: "UMA_ADDRESS", umaAddress: payment.senderUmaAddress, currency: payment.currency },
      destination: { destinationType: "ACCOUNT", accountId: into.id, currency: into.currency },
      customerId: customer.id,
      platformCustomerId: customer.platformCustomerId,
      receivedAmount: { amount: payment.amount, currency: rate.receivingCurrency },
      ...(payment.quoteId === undefined ? {} : { quoteId: payment.quoteId }),
      createdAt: at,
      updatedAt: at,
      ...(into.kind === "INTERNAL" ? { ledger: { accountId: into.id, amount: credited, currency: into.currency, funds: "NONE" as const } } : {}),
      senderIdentifiers: [payment.senderUmaAddress],
      receiverIdentifiers: [into.id, customer.umaAddress]
    }
    return (yield* startTransaction(platform.id, created, payment.plan)).latest
  })
