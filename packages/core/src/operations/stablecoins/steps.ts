import { Clock, Effect, Either, Option } from "effect"
import { StablecoinOperations, StablecoinProviderAccounts } from "../../domain/collections.ts"
import type { DomainError } from "../../domain/envelope.ts"
import type { StablecoinOperationRecord, StablecoinPlanStep } from "../../domain/stablecoins/records.ts"
import { rfc3339 } from "../../domain/time.ts"
import { DueSteps, type StablecoinLinkDueStep, type StablecoinOperationDueStep } from "../../domain/transactions/due-step.ts"
import { stablecoinOperationStep } from "../../machines/stablecoin-operation.ts"
import { Ids } from "../../ports/ids.ts"
import { SERVER_SCOPE, Store } from "../../ports/store.ts"
import { post } from "../ledger/ledger.ts"

/**
 * Applies an operation's plan from `startMs` (DECISIONS #360), inside the caller's Store
 * transaction: each step whose time has come on the engine's clock goes through the machine
 * and posts the ledger movements it names; the first later one is written as the operation's
 * due step. Saves the record; answers the operation after the first step applied.
 */
export const runOperationSteps = (scope: string, start: StablecoinOperationRecord, steps: ReadonlyArray<StablecoinPlanStep>, startMs: number) =>
  Effect.gen(function* () {
    const store = yield* Store
    const now = yield* Clock.currentTimeMillis
    let o = start
    let first: StablecoinOperationRecord | undefined
    let clock = startMs
    for (let i = 0; i < steps.length; i++) {
      const dueAtMs = clock + steps[i]!.afterMs
      if (dueAtMs > now) {
        const id = yield* (yield* Ids).uuid
        const due: StablecoinOperationDueStep = { id, scope, transactionId: o.id, dueAtMs, kind: "STABLECOIN_OPERATION", steps: steps.slice(i) }
        yield* store.put(DueSteps, SERVER_SCOPE, due)
        break
      }
      const t = stablecoinOperationStep(o, steps[i]!.event, dueAtMs)
      if (Either.isLeft(t)) return yield* Effect.fail(t.left as DomainError)
      for (const m of t.right.moves) yield* post(scope, { kind: m.kind, reference: o.id, entries: m.entries })
      o = t.right.state
      first ??= o
      clock = dueAtMs
    }
    yield* store.put(StablecoinOperations, scope, o)
    return first ?? o
  })

/**
 * Applies a stablecoin due step inside the due runner's transaction (the step already consumed):
 * the next steps of an operation, or the sandbox's later revocation of a link. An operation gone
 * (a reset) or a link linked again since is left as it is.
 */
export const applyStablecoinDueStep = (d: StablecoinOperationDueStep | StablecoinLinkDueStep) =>
  Effect.gen(function* () {
    const store = yield* Store
    if (d.kind === "STABLECOIN_PROVIDER_ACCOUNT") {
      const link = yield* store.get(StablecoinProviderAccounts, d.scope, d.transactionId)
      if (Option.isNone(link) || link.value.updatedAt !== d.linkedAt || link.value.status !== "ACTIVE") return false
      yield* store.put(StablecoinProviderAccounts, d.scope, { ...link.value, status: d.status, updatedAt: rfc3339(d.dueAtMs) })
      return true
    }
    const op = yield* store.get(StablecoinOperations, d.scope, d.transactionId)
    if (Option.isNone(op) || d.steps.length === 0) return false
    yield* runOperationSteps(d.scope, op.value, d.steps, d.dueAtMs - d.steps[0]!.afterMs)
    return true
  })
