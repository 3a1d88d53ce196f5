import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Option } from "effect"
import { ledger } from "@tessera/core/operations"
import { InternalAccounts, LedgerBalances, LedgerMovements, makeEngine, Store } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { SqliteStore } from "@tessera/adapter-sqlite"
import { medianMs, SHORT } from "./rounds.ts"

const RUNS = SHORT ? 30 : 300
const BATCH = 5_000

const median = (f: () => unknown): number => medianMs(f, RUNS)

/**
 * The balance read (`ledger.balanceOf`) of an account with `movements` movements in the journal,
 * beside a plain
 * Store get of one record (the account) in the same engine: median ms.
 */
const balanceRead = async (store: "memory" | "sqlite", movements: number) => {
  const filename = join(mkdtempSync(join(tmpdir(), "tessera-bench-ledger-")), "l.sqlite")
  const engine = makeEngine({ store: store === "memory" ? MemoryStore.layer : SqliteStore.layer({ filename }) })
  const platform = await engine.platform({ clientId: "b", clientSecret: "s" })
  const account = engine.runSync(Effect.flatMap(Store, (s) => s.findBy(InternalAccounts, platform.id, "customerId", "platform")))[0]!.id
  // The history: 1,000 movements posted through the ledger (funding, balance webhook included),
  // the rest written straight into the journal with the balances they sum to (posting 100k
  // movements to one account through the outbox takes minutes on SQLite: see the closing note).
  const posted = Math.min(SHORT ? 100 : 1_000, movements)
  const seedStart = performance.now()
  for (let i = 0; i < posted; i++) engine.runSync(ledger.credit(platform.id, { account, amount: 1, counterparty: "funding", kind: "SANDBOX_FUNDING" }))
  const postUs = ((performance.now() - seedStart) / posted) * 1000
  // Baseline for the post: one record put in a transaction of its own, as many times.
  const putStart = performance.now()
  const record = Option.getOrThrow(engine.runSync(Effect.flatMap(Store, (s) => s.get(InternalAccounts, platform.id, account))))
  for (let i = 0; i < posted; i++)
    engine.runSync(Effect.flatMap(Store, (s) => s.transaction(s.put(InternalAccounts, platform.id, record))))
  const putUs = ((performance.now() - putStart) / posted) * 1000
  const funding = ledger.worldAccount("funding", "USD")
  for (let from = posted; from < movements; from += BATCH)
    engine.runSync(
      Effect.flatMap(Store, (s) =>
        s.transaction(
          Effect.gen(function* () {
            const upTo = Math.min(movements, from + BATCH)
            for (let i = from; i < upTo; i++)
              yield* s.put(LedgerMovements, platform.id, {
                id: `LedgerMovement:00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
                kind: "SANDBOX_FUNDING",
                entries: [
                  { account: funding, currency: "USD", bucket: "available", amount: -1 },
                  { account, currency: "USD", bucket: "available", amount: 1 }
                ],
                createdAt: "2026-01-01T00:00:00.000Z"
              })
            for (const [id, available] of [[account, upTo], [funding, -upTo]] as const)
              yield* s.put(LedgerBalances, platform.id, { id, currency: "USD", available, pending: 0, held: 0, updatedAt: "2026-01-01T00:00:00.000Z" })
          })
        )
      )
    )
  const check = engine.runSync(ledger.balanceOf(platform.id, account))
  if (check.available !== movements) throw new Error(`bad balance ${check.available} after ${movements} movements`)
  const balanceMs = median(() => engine.runSync(ledger.balanceOf(platform.id, account)))
  const storeGetMs = median(() => engine.runSync(Effect.flatMap(Store, (s) => s.get(InternalAccounts, platform.id, account))))
  await engine.dispose()
  return { balanceOfMs: balanceMs, storeGetBaselineMs: storeGetMs, postUsPerMovement: Math.round(postUs * 10) / 10, storePutTransactionBaselineUs: Math.round(putUs * 10) / 10 }
}

/** The balance read at 1,000 and at 100,000 movements, each store: it must not slow as history grows. */
export const ledgerBench = async () => {
  const out: Record<string, unknown> = { read: "ledger.balanceOf (in-process), beside a raw Store get of one record", runs: RUNS }
  for (const store of ["memory", "sqlite"] as const) {
    // Short mode (CI) keeps both figures, the larger at 10,000 movements.
    const small = await balanceRead(store, 1_000)
    const large = await balanceRead(store, SHORT ? 10_000 : 100_000)
    out[store] = { at1000: small, at100000: large, ratio: Math.round((large.balanceOfMs / small.balanceOfMs) * 100) / 100, targetRatio: 2 }
  }
  return out
}
