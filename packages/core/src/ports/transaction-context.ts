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
  /** Takes the permit now if it is free; the caller then owns it. */
  tryTake(): boolean {
    if (this.held) return false
    this.held = true
    return true
  }
  release(): void {
    const next = this.waiters.shift()
    if (next === undefined) this.held = false
    else next()
  }
}

/**
 * The common shape of a serialised write transaction: nested calls join; the outermost takes
 * the write permit, runs `begin`, then `commit` on success or `rollback` on any failure,
 * defect or interruption, and releases the permit. Written with as few Effect steps as the
 * semantics allow: it wraps every write of the engine, so each step shows in the benchmarks.
 */
export const serialisedTransaction = (
  permit: WritePermit,
  hooks: { readonly begin: () => void; readonly commit: () => void; readonly rollback: () => void }
) =>
  <X, E, R>(self: Effect.Effect<X, E, R>): Effect.Effect<X, E, R> =>
    Effect.withFiberRuntime<X, E, R>((fiber) =>
      fiber.getFiberRef(inTransaction)
        ? self
        : Effect.uninterruptibleMask((restore) => {
            const run = Effect.suspend(() => {
              try {
                hooks.begin()
              } catch (e) {
                permit.release()
                return Effect.die(e)
              }
              return Effect.zipRight(
                FiberRef.set(inTransaction, true),
                Effect.onExit(restore(self), (exit) =>
                  Effect.zipRight(
                    FiberRef.set(inTransaction, false),
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
              )
            })
            return permit.tryTake() ? run : Effect.zipRight(restore(permit.take), run)
          })
    )

/**
 * A single write: run directly when the fiber is already inside a transaction (the common case,
 * one step instead of two), else as a transaction of one write.
 */
export const singleWrite =
  (tx: <X, E, R>(self: Effect.Effect<X, E, R>) => Effect.Effect<X, E, R>) =>
  <X>(f: () => X): Effect.Effect<X> =>
    Effect.withFiberRuntime<X>((fiber) => (fiber.getFiberRef(inTransaction) ? Effect.succeed(f()) : tx(Effect.sync(f))))
