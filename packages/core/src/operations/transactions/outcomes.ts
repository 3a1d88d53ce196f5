import { Clock, Effect, Either, Option } from "effect"
import { Transactions } from "../../domain/collections.ts"
import { DueSteps } from "../../domain/transactions/due-step.ts"
import type { DomainError } from "../../domain/envelope.ts"
import { makeId } from "../../domain/ids.ts"
import type { OutcomePlan, PlanStep } from "../../domain/transactions/outcome-plan.ts"
import type { TransactionRecord } from "../../domain/transactions/transaction.ts"
import { transactionStep, type TransactionEvent } from "../../machines/transaction.ts"
import { Ids } from "../../ports/ids.ts"
import { Notifier } from "../../ports/notifier.ts"
import { SERVER_SCOPE, Store } from "../../ports/store.ts"
import { postFunds } from "./ledger-postings.ts"
import { isPayment } from "../../domain/transactions/stored.ts"
import { applyCardDueStep } from "../cards/due.ts"
import { applyStablecoinDueStep } from "../stablecoins/steps.ts"

/**
 * Steps a transaction through its machine at `atMs` and writes what the step caused: the ledger
 * movement of its funds and its webhooks. Must run inside a Store transaction; the caller saves
 * the record. A refusal is a `DomainError` (a plan that breaks the machine's rules is a bug).
 */
export const stepTransaction = (scope: string, t: TransactionRecord, event: TransactionEvent, atMs: number) =>
  Effect.gen(function* () {
    const transition = transactionStep(t, event, atMs)
    if (Either.isLeft(transition)) return yield* Effect.fail(transition.left as DomainError)
    const after = transition.right.state
    yield* postFunds(scope, t, after, atMs)
    const notifier = yield* Notifier
    for (const e of transition.right.emit) yield* notifier.publish(scope, e)
    return after
  })

/**
 * Applies `steps` in order from `startMs`: each whose time (the previous step's plus its
 * `afterMs`) has come is applied now; the first later one is written as the transaction's due
 * step, to be applied by the due runner. A step that awaits approval stops the run and keeps the
 * rest for the approval. Saves the record; inside a Store transaction. Answers the record after
 * the first step and the latest one.
 */
export const runSteps = (scope: string, start: TransactionRecord, steps: ReadonlyArray<PlanStep>, startMs: number) =>
  Effect.gen(function* () {
    const store = yield* Store
    const now = yield* Clock.currentTimeMillis
    let t = start
    let first: TransactionRecord | undefined
    let clock = startMs
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i]!
      const dueAtMs = clock + step.afterMs
      if (dueAtMs > now) {
        const id = yield* (yield* Ids).uuid
        yield* store.put(DueSteps, SERVER_SCOPE, { id, scope, transactionId: t.id, dueAtMs, step, rest: steps.slice(i + 1) })
        break
      }
      t = yield* stepTransaction(scope, t, { _tag: "Apply", step }, dueAtMs)
      first ??= t
      clock = dueAtMs
      if (step.awaitApproval === true) {
        t = { ...t, approvalPlan: steps.slice(i + 1) }
        break
      }
    }
    yield* store.put(Transactions, scope, t)
    return { first: first ?? t, latest: t }
  })

/**
 * Starts a new transaction (`status` CREATED, never shown) on its outcome plan, in the caller's
 * Store transaction: the steps due now are applied at once (webhooks and ledger included), the
 * next later one is scheduled. `first` is the transaction as its creation answers it (after the
 * plan's first step, DECISIONS #181); `latest` is where it stands when the request ends.
 * `startMs` is when the plan starts (default: now); pass the instant the record's `createdAt` says.
 */
export const startTransaction = (scope: string, created: TransactionRecord, plan: OutcomePlan, startMs?: number) =>
  Effect.gen(function* () {
    // The plan's clock starts when the transaction was created, not a moment later.
    const start = startMs ?? (yield* Clock.currentTimeMillis)
    return yield* runSteps(scope, { ...created, outcome: plan.name }, plan.steps, start)
  })

/** A new transaction id. */
export const newTransactionId = Effect.map(Ids, (ids) => ids.uuid).pipe(
  Effect.flatten,
  Effect.map((uuid) => makeId("Transaction", uuid))
)

/** Whether a failure is a domain answer (the machine refused) rather than a store failure. */
const isDomainError = (e: unknown): e is DomainError => typeof e === "object" && e !== null && "status" in e && "message" in e

/**
 * Applies one due step, exactly once: the step record is read and removed in the transaction
 * that applies it, so a second runner (another process on the same file) finds it gone. A step
 * whose transaction no longer exists (a sandbox reset) is consumed without effect; one the
 * machine refuses (a plan breaking the machine's rules) rolls back and is then consumed alone,
 * so it cannot block the runner. Answers whether it applied.
 */
export const applyDueStep = (dueId: string) =>
  Effect.gen(function* () {
    const store = yield* Store
    const applied = yield* store
      .transaction(
        Effect.gen(function* () {
          const due = yield* store.get(DueSteps, SERVER_SCOPE, dueId)
          if (Option.isNone(due)) return false
          yield* store.remove(DueSteps, SERVER_SCOPE, dueId)
          const d = due.value
          if (d.kind === "STABLECOIN_OPERATION" || d.kind === "STABLECOIN_PROVIDER_ACCOUNT") return yield* applyStablecoinDueStep(d)
          if (d.kind !== undefined) return yield* applyCardDueStep(d)
          const t = yield* store.get(Transactions, d.scope, d.transactionId)
          // A payment's step finds a payment (a card transaction's steps are the card kinds).
          if (Option.isNone(t) || !isPayment(t.value)) return false
          yield* runSteps(d.scope, t.value, [d.step, ...d.rest], d.dueAtMs - d.step.afterMs)
          return true
        })
      )
      .pipe(Effect.either)
    if (Either.isRight(applied)) return applied.right
    if (!isDomainError(applied.left)) return yield* Effect.fail(applied.left)
    yield* Effect.logWarning(`outcome step ${dueId} refused by the transaction machine: ${applied.left.message}`)
    yield* store.transaction(store.remove(DueSteps, SERVER_SCOPE, dueId))
    return false
  })
