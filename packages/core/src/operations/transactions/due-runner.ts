import { Clock, Effect } from "effect"
import { DueSteps } from "../../domain/transactions/due-step.ts"
import { DUE_STEP_BATCH } from "../../limits.ts"
import { SERVER_SCOPE, sortableInstant, Store } from "../../ports/store.ts"
import { applyDueStep } from "./outcomes.ts"

/**
 * Applies every outcome step whose time has come on the engine's clock, each in its own Store
 * transaction, and answers how many it applied. Reads the due index (never the collection), a
 * batch at a time, until nothing is due: applying a step schedules the next one only for a
 * later time, so the loop ends. Run after a virtual clock advance and by the server's timer.
 */
export const runDueSteps = Effect.gen(function* () {
  const store = yield* Store
  const upTo = sortableInstant(yield* Clock.currentTimeMillis)!
  let applied = 0
  for (;;) {
    const batch = yield* store.due(DueSteps, SERVER_SCOPE, "dueAt", upTo, DUE_STEP_BATCH)
    for (const d of batch) if (yield* applyDueStep(d.id)) applied++
    if (batch.length < DUE_STEP_BATCH) return applied
  }
})

/**
 * Applies the due steps of one transaction (DECISIONS #186): reading a transaction shows where it
 * stands on the engine's clock even between two passes of the server's timer.
 */
export const runDueStepsOf = (scope: string, transactionId: string) =>
  Effect.gen(function* () {
    const store = yield* Store
    const now = yield* Clock.currentTimeMillis
    const pending = yield* store.findBy(DueSteps, SERVER_SCOPE, "transaction", `${scope}|${transactionId}`)
    for (const d of pending) if (d.dueAtMs <= now) yield* applyDueStep(d.id)
  })
