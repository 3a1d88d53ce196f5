import { Effect, Either } from "effect"
import { Customers } from "../../domain/collections.ts"
import { UmaNotFound, UserNotFound } from "../../domain/errors.ts"
import { decodeInput, type FieldError, invalidInput } from "../../domain/field-errors.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { SandboxUmaReceiveRequest } from "../../domain/quotes/request.ts"
import { transactionView } from "../../domain/transactions/transaction.ts"
import { Store } from "../../ports/store.ts"
import { loadCustomer } from "../customers/customers.ts"
import { creditUmaPayment } from "../quotes/uma-credit.ts"
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
    const store = yield* Store
    return yield* store.transaction(
      Effect.gen(function* () {
        const latest = yield* creditUmaPayment(platform, customer, {
          senderUmaAddress: req.senderUmaAddress,
          currency: req.receivingCurrencyCode,
          amount: req.receivingCurrencyAmount,
          plan: umaIncomingOutcome(sender.outcome)
        })
        return transactionView(latest)
      })
    )
  })

