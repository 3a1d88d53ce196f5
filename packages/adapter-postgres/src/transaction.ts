import { Effect } from "effect"
import { STORE_TRANSACTION_RETRIES, StoreError } from "@tessera/core"
import { serialisedTransaction, WritePermit } from "@tessera/core/store-kit"
import { type Connection, fromPromise } from "./connection.ts"
import { isConflict, isRetryableSqlState, storeErrorOf } from "./errors.ts"

/**
 * How many times in all a transaction that keeps losing serialization races is run before its error is
 * given up to the caller. Far above the other stores' bound: with several instances on one
 * database a hot row (a signed retry's request id, a collection's counter) can lose many races
 * in a row, and a client must never see one (issue 14).
 */
export const PG_TRANSACTION_ATTEMPTS = 60

/** Backoff before attempt `n` (1-based): jittered, doubling from 1 ms up to 100 ms. */
const backoffMs = (n: number): number => Math.random() * Math.min(100, 2 ** Math.min(n, 7))

/**
 * A wait on the real clock. Effect.sleep would wait on the engine's clock, which a sandbox in
 * virtual time only moves when told.
 */
const pause = (ms: number): Effect.Effect<void> =>
  Effect.async<void>((resume) => {
    const t = setTimeout(() => resume(Effect.void), ms)
    return Effect.sync(() => clearTimeout(t))
  })

const isRetryable = (e: unknown): e is StoreError => e instanceof StoreError && e.retryable

/**
 * SERIALIZABLE transactions on one pooled connection each. Inside one instance they are
 * serialised by the write permit, as in the other stores; between instances PostgreSQL's
 * serializable isolation makes them behave as if run one after another, failing the loser of
 * a race with 40001 (or 40P01), which is retried here with a jittered backoff.
 */
export const postgresTransaction = (conn: Connection) => {
  const begin = () =>
    fromPromise(async () => {
      const client = await conn.pool.connect()
      try {
        await client.query("BEGIN ISOLATION LEVEL SERIALIZABLE")
      } catch (e) {
        client.release(e as Error)
        throw e
      }
      conn.current = { client, error: undefined }
    })
  const end = (sql: "COMMIT" | "ROLLBACK") =>
    fromPromise(async () => {
      const tx = conn.current
      if (tx === undefined) return
      if (sql === "COMMIT" && tx.error !== undefined) {
        // The transaction is already aborted; COMMIT would silently roll it back.
        const e = storeErrorOf(tx.error)
        throw e instanceof StoreError ? e : new StoreError({ message: "PostgreSQL: the transaction failed", retryable: isRetryableSqlState(tx.error) })
      }
      try {
        await tx.client.query(sql)
      } catch (e) {
        conn.current = undefined
        // A connection that cannot end its transaction is not given back to the pool.
        tx.client.release(e as Error)
        throw e
      }
      conn.current = undefined
      tx.client.release()
    })
  const once = serialisedTransaction(new WritePermit(), { begin, commit: () => end("COMMIT"), rollback: () => end("ROLLBACK") }, 0)
  conn.holds = once.holds

  // Two budgets: a lost race gets many attempts; any other retryable failure (a program's own,
  // or one the port's contract counts) gets the port's bound, as in every store.
  const attempt = <X, E, R>(self: Effect.Effect<X, E, R>, races: number, others: number): Effect.Effect<X, E | StoreError, R> =>
    Effect.catchIf(
      once(self),
      (e): e is Extract<E | StoreError, StoreError> =>
        isRetryable(e) && (isConflict(e) ? races < PG_TRANSACTION_ATTEMPTS - 1 : others < STORE_TRANSACTION_RETRIES),
      (e) => (isConflict(e) ? Effect.zipRight(pause(backoffMs(races + 1)), attempt(self, races + 1, others)) : attempt(self, races, others + 1))
    )

  const tx = <X, E, R>(self: Effect.Effect<X, E, R>): Effect.Effect<X, E | StoreError, R> =>
    Effect.withFiberRuntime<X, E | StoreError, R>((fiber) => (once.holds(fiber) ? self : attempt(self, 0, 0)))
  return Object.assign(tx, { holds: once.holds })
}
