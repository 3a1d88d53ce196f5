import { Cause, Effect, type Exit, Option } from "effect"
import { STORE_TRANSACTION_RETRIES, StoreError, type UniqueViolation } from "@tessera/core"
import { failOrDie, type WritePermit } from "@tessera/core/store-kit"

/** What an owned transaction does to the store: open the undo log, drop it, or undo through it. */
export interface SyncHooks {
  readonly begin: () => void
  readonly commit: () => void
  readonly rollback: () => void
}

const isRetryable = (e: unknown): boolean => e instanceof StoreError && e.retryable

/**
 * The synchronous memory store's transactions, without the `inTransaction` FiberRef
 * (DECISIONS #450). The store remembers which fiber holds its open transaction (its write
 * permit): a nested `transaction` or a write from that fiber joins it, any other fiber's write
 * waits for the permit as before. Setting and resetting a FiberRef copies the fiber's FiberRefs
 * map and costs two Effect steps per transaction; a field and a pointer comparison cost
 * neither. The semantics are `serialisedTransaction`'s: the outermost transaction takes the
 * permit (the wait interruptible), runs the body interruptibly, commits on success and rolls
 * back on any failure, defect or interruption (uninterruptibly), releases the permit and runs
 * again on a retryable `StoreError`, up to the retry budget. A fiber forked inside a
 * transaction is not its owner: no operation forks inside one, and one that did would have its
 * writes wait for the transaction to end.
 */
export const ownedTransaction = (permit: WritePermit, hooks: SyncHooks, retries = STORE_TRANSACTION_RETRIES) => {
  let owner: unknown = undefined

  const once = <X, E, R>(fiber: unknown, self: Effect.Effect<X, E, R>, left: number): Effect.Effect<X, E | StoreError, R> =>
    Effect.uninterruptibleMask((restore) => {
      const settle = (exit: Exit.Exit<X, E>): Effect.Effect<X, E | StoreError, R> => {
        owner = undefined
        // A hook that throws (a bug: the memory store's cannot fail) dies, but frees the permit.
        try {
          if (exit._tag === "Success") hooks.commit()
          else hooks.rollback()
        } finally {
          permit.release()
        }
        // Retried when its failure is a retryable StoreError (what `catchIf` would catch).
        if (exit._tag === "Failure" && left > 0 && Option.exists(Cause.failureOption(exit.cause), isRetryable))
          // The retry's permit wait and body are interruptible again, as the first attempt's were.
          return restore(once(fiber, self, left - 1))
        return exit
      }
      const run = () => {
        try {
          hooks.begin()
        } catch (e) {
          permit.release()
          throw e
        }
        owner = fiber
        return Effect.flatMap(Effect.exit(restore(self)), settle)
      }
      return permit.tryTake() ? run() : Effect.zipRight(restore(permit.take), Effect.suspend(run))
    })

  const transaction = <X, E, R>(self: Effect.Effect<X, E, R>): Effect.Effect<X, E | StoreError, R> =>
    Effect.withFiberRuntime<X, E | StoreError, R>((fiber) =>
      fiber === owner ? self : once(fiber, self, retries)
    )

  /**
   * A single write: done at once by the transaction's owner, else a transaction of one write.
   * `f` throws a `StoreError` or `UniqueViolation` to fail (writing nothing).
   */
  const write = <X, E extends StoreError | UniqueViolation = StoreError>(f: () => X): Effect.Effect<X, E> => {
    const now = (): Effect.Effect<X, E> => {
      try {
        return Effect.succeed(f())
      } catch (e) {
        return failOrDie(e) as Effect.Effect<never, E>
      }
    }
    return Effect.withFiberRuntime<X, E>((fiber) =>
      fiber === owner ? now() : (once(fiber, Effect.suspend(now), retries) as Effect.Effect<X, E>)
    )
  }

  return { transaction, write }
}
