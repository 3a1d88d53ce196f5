import { Clock, Effect, Option, Schema } from "effect"
import { Transactions } from "../../domain/collections.ts"
import { DateTimeString, optional } from "../../domain/common.ts"
import { TransactionNotCancellable, TransactionNotFound, TransactionNotPendingPlatformApproval } from "../../domain/errors.ts"
import type { CardTransactionRecord } from "../../domain/cards/card-transaction.ts"
import { isPayment, storedTransactionView } from "../../domain/transactions/stored.ts"
import { decodeInput, invalidInput } from "../../domain/field-errors.ts"
import { isId } from "../../domain/ids.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { DueSteps } from "../../domain/transactions/due-step.ts"
import type { PlanStep } from "../../domain/transactions/outcome-plan.ts"
import { type TransactionRecord, transactionView } from "../../domain/transactions/transaction.ts"
import type { TransactionEvent } from "../../machines/transaction.ts"
import { SERVER_SCOPE, Store } from "../../ports/store.ts"
import { runDueStepsOf } from "./due-runner.ts"
import { runSteps, stepTransaction } from "./outcomes.ts"

export const transactionNotFound = (id: string) =>
  new TransactionNotFound({ message: `Transaction ${id} not found`, details: { transactionId: id } })

/** Ids GET /transactions/{id} answers: payments' and card transactions'. */
export const isTransactionId = (id: string): boolean => isId("Transaction", id) || isId("CardTransaction", id)

/** A transaction of the platform (a payment or a card transaction); a malformed id is not found. */
export const loadTransaction = (platform: PlatformRecord, id: string) =>
  Effect.gen(function* () {
    const found = isTransactionId(id) ? yield* (yield* Store).get(Transactions, platform.id, id) : Option.none()
    if (Option.isNone(found)) return yield* Effect.fail(transactionNotFound(id))
    return found.value
  })

/** GET /transactions/{id}: where the transaction stands on the engine's clock now (DECISIONS #186). */
export const getTransaction = (platform: PlatformRecord, id: string) =>
  Effect.gen(function* () {
    if (isTransactionId(id)) yield* runDueStepsOf(platform.id, id)
    return storedTransactionView(yield* loadTransaction(platform, id))
  })

export const ConfirmReceiptBody = Schema.Struct({ receiptDeliveryConfirmedAt: optional(DateTimeString) })
export const ApproveBody = Schema.Struct({ receiverCustomerInfo: optional(Schema.Record({ key: Schema.String, value: Schema.Unknown })) })
export const ReasonBody = Schema.Struct({ reason: optional(Schema.String.pipe(Schema.maxLength(1024))) })

/**
 * One action on a transaction: its due steps first (an action sees where it stands now), then
 * the machine's step, saved with its webhooks and ledger movement in one transaction. An
 * approval runs what follows the approval; a cancel or reject drops the steps still pending.
 */
const act = (platform: PlatformRecord, id: string, event: TransactionEvent) =>
  Effect.gen(function* () {
    if (isTransactionId(id)) yield* runDueStepsOf(platform.id, id)
    const store = yield* Store
    return yield* store.transaction(
      Effect.gen(function* () {
        const stored = yield* loadTransaction(platform, id)
        if (!isPayment(stored)) return yield* Effect.fail(cardRefusal(stored, event))
        const t = stored
        const now = yield* Clock.currentTimeMillis
        const after = yield* stepTransaction(platform.id, t, event, now)
        if (event._tag === "Approve") {
          const { approvalPlan, ...rest } = after
          const steps = (approvalPlan ?? []) as ReadonlyArray<PlanStep>
          return transactionView((yield* runSteps(platform.id, rest as TransactionRecord, steps, now)).latest)
        }
        if (event._tag === "Cancel" || event._tag === "Reject") {
          for (const d of yield* store.findBy(DueSteps, SERVER_SCOPE, "transaction", `${platform.id}|${id}`)) yield* store.remove(DueSteps, SERVER_SCOPE, d.id)
        }
        yield* store.put(Transactions, platform.id, after)
        return transactionView(after)
      })
    )
  })

/**
 * A card transaction answers no platform action (DECISIONS #211): it never awaits approval, is
 * never cancellable, and has no receipt to confirm.
 */
const cardRefusal = (t: CardTransactionRecord, event: TransactionEvent) => {
  const details = { transactionId: t.id, status: t.status }
  switch (event._tag) {
    case "Approve":
    case "Reject":
      return new TransactionNotPendingPlatformApproval({ message: `Card transaction ${t.id} does not wait for the platform's approval`, details })
    case "Cancel":
      return new TransactionNotCancellable({ message: `Card transaction ${t.id} cannot be cancelled`, details })
    default:
      return invalidInput([{ field: "transactionId", message: `${t.id} is a card transaction: it has no receipt to confirm` }])
  }
}

/** POST /transactions/{id}/confirm: records when the platform delivered the receipt (again: the new time). */
export const confirmReceipt = (platform: PlatformRecord, id: string, body: unknown) =>
  Effect.gen(function* () {
    const input = yield* decodeInput(ConfirmReceiptBody)(body ?? {})
    return yield* act(platform, id, { _tag: "Confirm", ...(input.receiptDeliveryConfirmedAt === undefined ? {} : { at: input.receiptDeliveryConfirmedAt }) })
  })

/** POST /transactions/{id}/approve: an incoming payment waiting for the platform proceeds (409 otherwise). */
export const approveTransaction = (platform: PlatformRecord, id: string, body: unknown) =>
  Effect.gen(function* () {
    yield* decodeInput(ApproveBody)(body ?? {})
    return yield* act(platform, id, { _tag: "Approve" })
  })

/** POST /transactions/{id}/reject: an incoming payment waiting for the platform is refused (409 otherwise). */
export const rejectTransaction = (platform: PlatformRecord, id: string, body: unknown) =>
  Effect.gen(function* () {
    yield* decodeInput(ReasonBody)(body ?? {})
    return yield* act(platform, id, { _tag: "Reject" })
  })

/** POST /transactions/{id}/cancel: a transfer not yet processing is cancelled (409 TRANSACTION_NOT_CANCELLABLE otherwise). */
export const cancelTransaction = (platform: PlatformRecord, id: string, body: unknown) =>
  Effect.gen(function* () {
    yield* decodeInput(ReasonBody)(body ?? {})
    return yield* act(platform, id, { _tag: "Cancel" })
  })
