import { Effect, FiberRef } from "effect"

/**
 * Whether the current fiber is inside a Store transaction. Store adapters read it to let a
 * nested `transaction` join the outer one and to route writes through the open transaction.
 */
export const inTransaction: FiberRef.FiberRef<boolean> = FiberRef.unsafeMake(false)

/**
 * The single write permit of a store. Uncontended, taking it is synchronous (no fiber
 * suspension), which keeps a write program on a synchronous store synchronous; contended,
 * waiters queue in arrival order and the permit is handed over directly on release.
 */
export class WritePermit {
  private held = false
  private readonly waiters: Array<() => void> = []
  readonly take: Effect.Effect<void> = Effect.suspend(() => {
    if (!this.held) {
      this.held = true
      return Effect.void
    }
    return Effect.async<void>((resume) => {
      const wake = () => resume(Effect.void)
      this.waiters.push(wake)
      return Effect.sync(() => {
        const i = this.waiters.indexOf(wake)
        if (i >= 0) this.waiters.splice(i, 1)
      })
    })
  })
  release(): void {
    const next = this.waiters.shift()
    if (next === undefined) this.held = false
    else next()
  }
}

/**
 * The common shape of a serialised write transaction: nested calls join; the outermost takes
 * the write permit, runs `begin`, then `commit` on success or `rollback` on any failure,
 * defect or interruption, and releases the permit.
 */
export const serialisedTransaction = (
  permit: WritePermit,
  hooks: { readonly begin: () => void; readonly commit: () => void; readonly rollback: () => void }
) =>
  <X, E, R>(self: Effect.Effect<X, E, R>): Effect.Effect<X, E, R> =>
    Effect.flatMap(FiberRef.get(inTransaction), (nested) =>
      nested
        ? self
        : Effect.uninterruptibleMask((restore) =>
            Effect.zipRight(
              restore(permit.take),
              Effect.suspend(() => {
                try {
                  hooks.begin()
                } catch (e) {
                  permit.release()
                  return Effect.die(e)
                }
                return Effect.locally(restore(self), inTransaction, true).pipe(
                  Effect.onExit((exit) =>
                    Effect.sync(() => {
                      try {
                        if (exit._tag === "Success") hooks.commit()
                        else hooks.rollback()
                      } finally {
                        permit.release()
                      }
                    })
                  )
                )
              })
            )
          )
    )
