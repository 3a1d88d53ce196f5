import { type Cause, Effect, Exit, type Fiber, FiberRef } from "effect"
import { STORE_TRANSACTION_RETRIES } from "../limits.ts"
import { StoreError, UniqueViolation } from "./store.ts"

/**
 * The Store transaction the current fiber is in, as a token: set when a transaction starts its
 * body, inherited by the fibers it forks, never unset. A store compares it with the token of its
 * own open transaction (`SerialisedTransaction.holds`), so a fiber is inside a transaction only
 * while that transaction is open, and only for its store (DECISIONS #534). Adapters read it
 * through `holds`, to let a nested `transaction` join the outer one and to route writes through
 * the open transaction.
 */
export const currentTransaction: FiberRef.FiberRef<object | undefined> = FiberRef.unsafeMake<object | undefined>(undefined)

/**
 * A store whose commits reach the disk later than they return (group commit, DECISIONS #310):
 * commits are numbered in order, and `wait(n)` completes once commit `n` and every one before it
 * is durable, or fails with a `StoreError` when that cannot be made so.
 */
export interface DurabilityBarrier {
  readonly wait: (ticket: number) => Effect.Effect<void, StoreError>
  /**
   * The same as `wait`, for a caller outside any fiber: calls `done` once commit `ticket` is
   * durable (with no argument), or with the StoreError that says it cannot be; at once when that
   * is already known. The engine's `run` and `runReport` wait through it when a barrier has it
   * (running `wait` as a program of its own costs a fiber that suspends, ~5% of a SQLite write
   * request's time, DECISIONS #525), and through `wait` when it does not.
   */
  readonly whenDurable?: (ticket: number, done: (error?: StoreError) => void) => void
  /** The same, blocking the thread: for synchronous callers (`engine.runSync`). Throws a `StoreError`. */
  readonly waitSync: (ticket: number) => void
}

/** The newest commit of the current fiber that may not be durable yet (none: nothing to wait for). */
export interface PendingCommit {
  readonly barrier: DurabilityBarrier
  readonly ticket: number
}

let newestPending: PendingCommit | undefined

/**
 * The newest commit made in this process, by any fiber, that may not be durable yet. A caller
 * that runs a program synchronously compares it before and after the run (the engine does,
 * DECISIONS #440): nothing else runs during a synchronous run, so an unchanged value means the
 * run committed nothing and pays no step for the barrier; a changed one is at least as new as
 * the run's own last commit, and waiting for it is enough.
 */
export const newestPendingCommit = (): PendingCommit | undefined => newestPending

/** Set by a transaction that committed writes on a store with a barrier; read by `awaitDurable`. */
export const pendingCommit: FiberRef.FiberRef<PendingCommit | undefined> = FiberRef.unsafeMake<PendingCommit | undefined>(undefined)

/**
 * Makes the current fiber's answer wait for `p` too: it read writes that are not durable yet (a
 * store that batches a group's writes into one transaction, DECISIONS #481). Tickets of one
 * barrier only grow, so the newer one covers both. It is also the newest pending commit, a new
 * value even for the same ticket, so that a synchronous run that read it waits too (#440).
 */
export const dependOn = (p: PendingCommit): Effect.Effect<void> =>
  Effect.suspend(() => {
    if (newestPending === undefined || newestPending.barrier !== p.barrier || newestPending.ticket <= p.ticket) newestPending = p
    return FiberRef.update(pendingCommit, (prev) => (prev !== undefined && prev.barrier === p.barrier && prev.ticket >= p.ticket ? prev : p))
  })

/**
 * Completes once every transaction the current fiber committed is durable: at once when it
 * committed none, or its store makes each commit durable before returning (memory, PostgreSQL,
 * SQLite with synchronous=FULL). A program that acts outside (a webhook POST) runs it before
 * acting; the engine does the same for every program before it reports its outcome, outside the
 * program (`DurabilityBarrier.whenDurable`), so nothing is answered before what it wrote is on disk.
 */
export const awaitDurable: Effect.Effect<void, StoreError> = Effect.flatMap(FiberRef.get(pendingCommit), (p) =>
  p === undefined ? Effect.void : p.barrier.wait(p.ticket)
)

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
    // `release` hands the permit straight to the first waiter. A waiter interrupted after that,
    // before it runs again, holds the permit without knowing it: it passes it on (#458).
    let granted = false
    const wait = Effect.async<void>((resume) => {
      const wake = () => {
        granted = true
        resume(Effect.void)
      }
      this.waiters.push(wake)
      return Effect.sync(() => {
        const i = this.waiters.indexOf(wake)
        if (i >= 0) this.waiters.splice(i, 1)
      })
    })
    return Effect.onInterrupt(wait, () =>
      Effect.sync(() => {
        if (granted) this.release()
      })
    )
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
 * A transaction hook: a synchronous store does its work and returns nothing (no Effect step is
 * added, so its programs stay synchronous), throwing a `StoreError` when the driver fails; an
 * asynchronous store returns the Effect that does it.
 */
export type Hook = () => void | Effect.Effect<void, StoreError>

export interface TransactionHooks {
  readonly begin: Hook
  readonly commit: Hook
  readonly rollback: Hook
  /**
   * After a successful commit: the commit to wait for before anything is answered, when the
   * store's commits are not durable on return (group commit); undefined when there is none.
   */
  readonly committed?: () => PendingCommit | undefined
}

/**
 * Sets a FiberRef of the running fiber from inside one of its own steps, as `FiberRef.set` does in
 * a step of its own. `setFiberRef` is the runtime fiber's method `FiberRef.set` calls; Effect's
 * public `RuntimeFiber` type declares only its getter, so it is reached through this one cast
 * (the store contract suite's nested and concurrent transactions fail if it ever stops working).
 */
const setFiberRef = <A>(fiber: Fiber.RuntimeFiber<unknown, unknown>, ref: FiberRef.FiberRef<A>, value: A): void =>
  (fiber as unknown as { setFiberRef: (ref: FiberRef.FiberRef<A>, value: A) => void }).setFiberRef(ref, value)

/** A thrown store error is a failure; anything else thrown is a defect. */
export const failOrDie = (e: unknown): Effect.Effect<never, StoreError | UniqueViolation> =>
  e instanceof StoreError || e instanceof UniqueViolation ? Effect.fail(e) : Effect.die(e)

const call = (hook: Hook): Effect.Effect<void, StoreError> | undefined => {
  try {
    return hook() ?? undefined
  } catch (e) {
    return failOrDie(e) as Effect.Effect<never, StoreError>
  }
}

const isRetryable = (e: unknown): e is StoreError => e instanceof StoreError && e.retryable

/**
 * The common shape of a serialised write transaction: nested calls join; the outermost takes
 * the write permit, runs `begin`, then `commit` on success or `rollback` on any failure,
 * defect or interruption, and releases the permit; a retryable store failure runs it all again,
 * up to `retries` times. Written with as few Effect steps as the semantics allow: it wraps
 * every write of the engine, so each step shows in the benchmarks.
 */
export interface SerialisedTransaction {
  <X, E, R>(self: Effect.Effect<X, E, R>): Effect.Effect<X, E | StoreError, R>
  /** Whether `fiber` is inside this store's open transaction: it runs its body, or was forked by a fiber that did. */
  readonly holds: (fiber: Fiber.RuntimeFiber<unknown, unknown>) => boolean
}

export const serialisedTransaction = (permit: WritePermit, hooks: TransactionHooks, retries = STORE_TRANSACTION_RETRIES): SerialisedTransaction => {
  // The open transaction's token (`currentTransaction`), from the start of its body to its end.
  let open: object | undefined
  const holds = (fiber: Fiber.RuntimeFiber<unknown, unknown>): boolean => open !== undefined && fiber.getFiberRef(currentTransaction) === open
  const remember = <X, E>(pending: PendingCommit | undefined, exit: Exit.Exit<X, E>): Effect.Effect<X, E> =>
    pending === undefined ? exit : ((newestPending = pending), Effect.zipRight(FiberRef.set(pendingCommit, pending), exit))
  const settle = <X, E>(exit: Exit.Exit<X, E>): Effect.Effect<X, E | StoreError> => {
    const end = call(exit._tag === "Success" ? hooks.commit : hooks.rollback)
    if (end === undefined) {
      permit.release()
      return exit._tag === "Success" && hooks.committed !== undefined ? remember(hooks.committed(), exit) : exit
    }
    // A commit that fails leaves the transaction to roll back; its error is the answer.
    const ended =
      exit._tag === "Success"
        ? Effect.catchAll(end, (e) => Effect.zipRight(Effect.ignore(call(hooks.rollback) ?? Effect.void), Effect.fail(e)))
        : Effect.ignore(end)
    return Effect.flatMap(Effect.exit(ended), (endExit): Effect.Effect<X, E | StoreError> => {
      permit.release()
      if (endExit._tag === "Failure") return Effect.failCause(endExit.cause)
      return exit._tag === "Success" && hooks.committed !== undefined ? remember(hooks.committed(), exit) : exit
    })
  }

  const once = <X, E, R>(self: Effect.Effect<X, E, R>): Effect.Effect<X, E | StoreError, R> =>
    Effect.uninterruptibleMask((restore) => {
      // The fiber's `currentTransaction` is set in a step that is there anyway, through the fiber
      // itself: a `FiberRef.set` was more steps of every transaction (DECISIONS #512). It is not
      // unset at the end: the transaction's token stops being the open one (#534).
      const run = Effect.withFiberRuntime<X, E | StoreError, R>((fiber) => {
        // One continuation for either outcome (`Effect.exit` then `flatMap` was two steps).
        const ended = {
          onFailure: (cause: Cause.Cause<E | StoreError>) => {
            open = undefined
            return settle(Exit.failCause(cause))
          },
          onSuccess: (value: X) => {
            open = undefined
            return settle(Exit.succeed(value))
          }
        }
        const body = () => {
          const token = {}
          open = token
          setFiberRef(fiber, currentTransaction, token)
          return Effect.matchCauseEffect(restore(self), ended)
        }
        const began = call(hooks.begin)
        if (began === undefined) return body()
        return Effect.matchCauseEffect(began, {
          onFailure: (cause) => {
            permit.release()
            return Effect.failCause(cause)
          },
          onSuccess: body
        })
      })
      return permit.tryTake() ? run : Effect.zipRight(restore(permit.take), run)
    })

  const attempt = <X, E, R>(self: Effect.Effect<X, E, R>, left: number): Effect.Effect<X, E | StoreError, R> =>
    left <= 0 ? once(self) : Effect.catchIf(once(self), isRetryable, () => attempt(self, left - 1))

  const tx = <X, E, R>(self: Effect.Effect<X, E, R>): Effect.Effect<X, E | StoreError, R> =>
    Effect.withFiberRuntime<X, E | StoreError, R>((fiber) => (holds(fiber) ? self : attempt(self, retries)))
  return Object.assign(tx, { holds })
}

/**
 * A single write: run directly when the fiber is already inside a transaction (the common case,
 * one step instead of two), else as a transaction of one write. `f` throws a `StoreError` or
 * `UniqueViolation` to fail.
 */
export const singleWrite =
  (tx: SerialisedTransaction) =>
  <X, E extends StoreError | UniqueViolation = StoreError>(f: () => X): Effect.Effect<X, E> => {
    const now = (): Effect.Effect<X, E> => {
      try {
        return Effect.succeed(f())
      } catch (e) {
        return failOrDie(e) as Effect.Effect<never, E>
      }
    }
    return Effect.withFiberRuntime<X, E>((fiber) => (tx.holds(fiber) ? now() : (tx(Effect.suspend(now)) as Effect.Effect<X, E>)))
  }

/** A synchronous read: a thrown `StoreError` is a failure. */
export const syncRead = <X>(f: () => X): Effect.Effect<X, StoreError> =>
  Effect.suspend(() => {
    try {
      return Effect.succeed(f())
    } catch (e) {
      return failOrDie(e) as Effect.Effect<never, StoreError>
    }
  })
