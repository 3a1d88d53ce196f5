import { Clock, Effect, Either } from "effect"
import { Customers, ExternalAccounts, InternalAccounts } from "../../domain/collections.ts"
import type { CustomerRecord } from "../../domain/customers/customer.ts"
import { UmaNotFound, UserNotFound } from "../../domain/errors.ts"
import { decodeInput, type FieldError, invalidInput } from "../../domain/field-errors.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { SandboxUmaReceiveRequest } from "../../domain/quotes/request.ts"
import { rfc3339 } from "../../domain/time.ts"
import { type TransactionRecord, transactionView } from "../../domain/transactions/transaction.ts"
import { Store } from "../../ports/store.ts"
import { loadCustomer } from "../customers/customers.ts"
import { equivalent, quoteRate } from "../quotes/rates.ts"
import { newTransactionId, startTransaction } from "../transactions/outcomes.ts"
import { umaIncomingOutcome } from "../../sandbox/uma-outcomes.ts"
import { sandboxUmaReceiver } from "../../sandbox/uma-receivers.ts"

const decode = decodeInput(SandboxUmaReceiveRequest)

const exactlyOneReceiver = (body: unknown): ReadonlyArray<FieldError> => {
  const b = body as { receiverUmaAddress?: unknown; customerId?: unknown } | null
  const n = Number(b?.receiverUmaAddress !== undefined) + Number(b?.customerId !== undefined)
  return n === 1 ? [] : [{ field: n === 0 ? "receiverUmaAddress" : "customerId", message: "exactly one of receiverUmaAddress and customerId is required" }]
}

const receiverByUma = (platform: PlatformRecord, uma: string) =>
  Effect.gen(function* () {
    const found = yield* (yield* Store).findBy(Customers, platform.id, "umaAddress", uma.toLowerCase())
    if (found.length === 0) return yield* new UserNotFound({ message: `No customer has the UMA address ${uma}`, details: { receiverUmaAddress: uma } })
    return found[0]!
  })

/**
 * Where an incoming UMA payment lands (spec: the customer's default UMA deposit external account
 * when one is set, else its primary internal account, the first one it was given).
 */
const depositAccount = (platform: PlatformRecord, customer: CustomerRecord) =>
  Effect.gen(function* () {
    const store = yield* Store
    const external = yield* store.findBy(ExternalAccounts, platform.id, "defaultUma", customer.id)
    if (external.length > 0) return { kind: "EXTERNAL" as const, id: external[0]!.id, currency: external[0]!.currency }
    const internal = yield* store.findBy(InternalAccounts, platform.id, "customerId", customer.id)
    if (internal.length === 0) return yield* new UserNotFound({ message: `Customer ${customer.id} has no account to receive into`, details: { customerId: customer.id } })
    return { kind: "INTERNAL" as const, id: internal[0]!.id, currency: internal[0]!.balance.currency.code }
  })

/**
 * POST /sandbox/uma/receive (DECISIONS #198): a payment from a sandbox UMA sender to a customer
 * (by UMA address or id), an INCOMING transaction with the `INCOMING_PAYMENT.*` webhooks. Into
 * an internal account it is a pending credit, converted at the rate of now into the account's
 * currency, available once the payment completes.
 */
export const sandboxUmaReceive = (platform: PlatformRecord, body: unknown) =>
  Effect.gen(function* () {
    const decoded = decode(body)
    const one = exactlyOneReceiver(body)
    if (Either.isLeft(decoded))
      return yield* invalidInput([...((decoded.left.details?.["errors"] as ReadonlyArray<FieldError>) ?? []), ...one])
    if (one.length > 0) return yield* invalidInput(one)
    const req = decoded.right
    const sender = sandboxUmaReceiver(req.senderUmaAddress)
    if (sender === undefined)
      return yield* new UmaNotFound({ message: `${req.senderUmaAddress} is not one of the sandbox's UMA senders`, details: { senderUmaAddress: req.senderUmaAddress } })
    const customer = req.customerId !== undefined ? yield* loadCustomer(platform, req.customerId) : yield* receiverByUma(platform, req.receiverUmaAddress!)
    const now = yield* Clock.currentTimeMillis
    const rate = yield* quoteRate(req.receivingCurrencyCode, req.receivingCurrencyCode, now)
    const store = yield* Store
    return yield* store.transaction(
      Effect.gen(function* () {
        const into = yield* depositAccount(platform, customer)
        const credited = yield* equivalent(req.receivingCurrencyAmount, req.receivingCurrencyCode, into.currency, now)
        const at = rfc3339(now)
        const created: TransactionRecord = {
          id: yield* newTransactionId,
          type: "INCOMING",
          status: "CREATED",
          direction: "CREDIT",
          source: { sourceType: "UMA_ADDRESS", umaAddress: req.senderUmaAddress, currency: req.receivingCurrencyCode },
          destination: { destinationType: "ACCOUNT", accountId: into.id, currency: into.currency },
          customerId: customer.id,
          platformCustomerId: customer.platformCustomerId,
          receivedAmount: { amount: req.receivingCurrencyAmount, currency: rate.receivingCurrency },
          createdAt: at,
          updatedAt: at,
          ...(into.kind === "INTERNAL" ? { ledger: { accountId: into.id, amount: credited, currency: into.currency, funds: "NONE" as const } } : {}),
          senderIdentifiers: [req.senderUmaAddress],
          receiverIdentifiers: [into.id, customer.umaAddress]
        }
        const { latest } = yield* startTransaction(platform.id, created, umaIncomingOutcome(sender.outcome))
        return transactionView(latest)
      })
    )
  })

