import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Option } from "effect"
import { DueSteps, makeEngine, Outbox, SERVER_SCOPE, Store, transferOutcome, Transactions } from "@tessera/core"
import { advanceClock, newTransactionId, startTransaction } from "@tessera/core/operations"
import { MemoryStore } from "@tessera/adapter-memory"
import { SqliteStore } from "@tessera/adapter-sqlite"
import { createdTransaction } from "../transactions/support.ts"
import { SHORT } from "./rounds.ts"

// Short mode (CI) runs the same steps on fewer transfers.
const N = SHORT ? 500 : 10_000
const BATCH = Math.min(N, 1_000)
const START = Date.parse("2026-01-01T00:00:00Z")

const layerFor = (store: "memory" | "sqlite") =>
  store === "memory" ? MemoryStore.layer : SqliteStore.layer({ filename: join(mkdtempSync(join(tmpdir(), "tessera-bench-due-")), "d.sqlite") })

/**
 * Advancing a virtual clock over N due outcomes: N transfers ending 005 are started (each
 * leaves one step due 30 s later), then one advance of 30 s applies them all. The baseline, in
 * the same run and store, is a plain loop of the writes one applied step makes, each in its own
 * transaction: read and remove a due record, read and replace the transaction, append an outbox
 * event. (Transactions without a ledger account: this measures the runner, not the ledger.)
 */
const measure = async (store: "memory" | "sqlite") => {
  const engine = makeEngine({ store: layerFor(store), clock: "virtual", clockStartMs: START })
  const platform = await engine.platform({ clientId: "bench", clientSecret: "bench-secret-0123456789" })
  const plan = transferOutcome("OUTGOING", "005")
  for (let from = 0; from < N; from += BATCH)
    engine.runSync(
      Effect.flatMap(Store, (s) =>
        s.transaction(
          Effect.forEach(
            Array.from({ length: BATCH }),
            () => Effect.flatMap(newTransactionId, (id) => startTransaction(platform.id, createdTransaction(id), plan)),
            { discard: true }
          )
        )
      )
    )
  const t0 = performance.now()
  engine.runSync(advanceClock({ seconds: 30 }))
  const advanceMs = performance.now() - t0
  const left = engine.runSync(Effect.flatMap(Store, (s) => s.list(DueSteps, SERVER_SCOPE, { limit: 1 }))).totalCount
  const failed = engine.runSync(Effect.flatMap(Store, (s) => s.list(Transactions, platform.id, { where: [{ index: "status", eq: "FAILED" }], limit: 1 }))).totalCount
  if (left !== 0 || failed !== N) throw new Error(`advance left ${left} due and ${failed} of ${N} failed`)

  // Baseline: the same writes per outcome, as a plain loop over the same transactions.
  const ids = engine.runSync(Effect.flatMap(Store, (s) => s.list(Transactions, platform.id, { limit: N }))).items.map((t) => t.id)
  const t1 = performance.now()
  engine.runSync(
    Effect.flatMap(Store, (s) =>
      Effect.forEach(
        ids,
        (id, i) =>
          s.transaction(
            Effect.gen(function* () {
              yield* s.put(DueSteps, SERVER_SCOPE, { id: `b${i}`, scope: platform.id, transactionId: id, dueAtMs: START, step: plan.steps[1]!, rest: [] })
              yield* s.get(DueSteps, SERVER_SCOPE, `b${i}`)
              yield* s.remove(DueSteps, SERVER_SCOPE, `b${i}`)
              const t = Option.getOrThrow(yield* s.get(Transactions, platform.id, id))
              yield* s.put(Transactions, platform.id, { ...t, updatedAt: new Date(START + i).toISOString() })
              yield* s.put(Outbox, platform.id, { id: `Webhook:b${i}`, type: "OUTGOING_PAYMENT.FAILED", timestamp: t.updatedAt, data: t, resourceId: `bench:${i}` })
            })
          ),
        { discard: true }
      )
    )
  )
  const baselineMs = performance.now() - t1
  await engine.dispose()
  const per = (ms: number) => Math.round((ms / N) * 1000) / 1000
  return {
    outcomes: N,
    advanceMs: Math.round(advanceMs),
    perOutcomeMs: per(advanceMs),
    baselinePlainWritesPerOutcomeMs: per(baselineMs),
    ratio: Math.round((advanceMs / baselineMs) * 100) / 100
  }
}

export const dueOutcomesBench = async () => ({
  scenario: `advance a virtual clock 30 s over ${N} due 005 transfer outcomes (each: FAILED, webhook)`,
  memory: await measure("memory"),
  sqlite: await measure("sqlite")
})
