import { Effect, FiberRef } from "effect"

/**
 * Whether the current fiber is inside a Store transaction. Store adapters read it to let a
 * nested `transaction` join the outer one and to route writes through the open transaction.
 */
export const inTransaction: FiberRef.FiberRef<boolean> = FiberRef.unsafeMake(false)

/**
 * The common shape of a serialised write transaction: nested calls join; the outermost takes
 * the single write permit, runs `begin`, then `commit` on success or `rollback` on any failure,
 * defect or interruption.
 */
export const serialisedTransaction = (
  withPermit: <X, E, R>(self: Effect.Effect<X, E, R>) => Effect.Effect<X, E, R>,
  hooks: { readonly begin: () => void; readonly commit: () => void; readonly rollback: () => void }
) =>
  <X, E, R>(self: Effect.Effect<X, E, R>): Effect.Effect<X, E, R> =>
    Effect.flatMap(FiberRef.get(inTransaction), (nested) =>
      nested
        ? self
        : withPermit(
            Effect.uninterruptibleMask((restore) =>
              Effect.suspend(() => {
                hooks.begin()
                return Effect.locally(restore(self), inTransaction, true).pipe(
                  Effect.onExit((exit) =>
                    Effect.sync(() => (exit._tag === "Success" ? hooks.commit() : hooks.rollback()))
                  )
                )
              })
            )
          )
    )
