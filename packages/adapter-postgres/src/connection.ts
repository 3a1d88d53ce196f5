import { Effect, type Fiber } from "effect"
import type pg from "pg"
import { StoreError } from "@tessera/core"
import { storeErrorOf } from "./errors.ts"

/** The open transaction of a store: its connection, and the first statement error inside it. */
export interface OpenTransaction {
  readonly client: pg.PoolClient
  error: unknown
}

/**
 * Where a store's statements go: through the open transaction's connection for a fiber inside
 * the transaction, through the pool (autocommit) for any other fiber. A failed statement inside
 * a transaction is remembered: PostgreSQL aborts the transaction at its first error, so the
 * commit must fail with that error even if the program caught it and went on.
 */
export class Connection {
  current: OpenTransaction | undefined = undefined
  /** Whether a fiber is inside the open transaction: the store's transaction sets it (`postgresTransaction`). */
  holds: (fiber: Fiber.RuntimeFiber<unknown, unknown>) => boolean = () => false

  /** Statement names by text: each connection prepares a statement once, on its first use. */
  private readonly names = new Map<string, string>()

  constructor(readonly pool: pg.Pool) {}

  private nameOf(text: string): string {
    let name = this.names.get(text)
    if (name === undefined) {
      name = `tessera_${this.names.size}`
      this.names.set(text, name)
    }
    return name
  }

  /** Runs a statement, prepared (by name) when `prepared` (the store's fixed statements). */
  query<R extends pg.QueryResultRow>(text: string, values: ReadonlyArray<unknown>, prepared = true): Effect.Effect<ReadonlyArray<R>, StoreError> {
    return Effect.withFiberRuntime((fiber) => {
      const tx = this.holds(fiber) ? this.current : undefined
      const target: pg.Pool | pg.PoolClient = tx?.client ?? this.pool
      return Effect.async<ReadonlyArray<R>, StoreError>((resume) => {
        const config: pg.QueryConfig = prepared ? { name: this.nameOf(text), text, values: values as Array<unknown> } : { text, values: values as Array<unknown> }
        target.query<R>(config).then(
          (r) => resume(Effect.succeed(r.rows)),
          (e: unknown) => {
            if (tx !== undefined && tx.error === undefined) tx.error = e
            const err = storeErrorOf(e)
            resume(err instanceof StoreError ? Effect.fail(err) : Effect.die(err))
          }
        )
      })
    })
  }
}

/** A promise as an Effect whose rejection is a typed store error (or a defect when it is not the database's). */
export const fromPromise = <X>(f: () => Promise<X>): Effect.Effect<X, StoreError> =>
  Effect.async<X, StoreError>((resume) => {
    f().then(
      (x) => resume(Effect.succeed(x)),
      (e: unknown) => {
        const err = storeErrorOf(e)
        resume(err instanceof StoreError ? Effect.fail(err) : Effect.die(err))
      }
    )
  })
