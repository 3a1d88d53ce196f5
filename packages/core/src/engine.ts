import { Cause, Context, Effect, Exit, type Fiber, FiberRef, FiberRefs, Layer, ManagedRuntime, Runtime, RuntimeFlags, type Scope } from "effect"
import type { PlatformRecord } from "./domain/platform/platform.ts"
import { Ids, randomIds, seededIds } from "./ports/ids.ts"
import { Keys } from "./ports/keys.ts"
import { Notifier, type OtpDelivery } from "./ports/notifier.ts"
import { WebhookTransport } from "./ports/webhook-transport.ts"
import type { Store, StoreError } from "./ports/store.ts"
import { newestPendingCommit, type PendingCommit, pendingCommit } from "./ports/transaction-context.ts"
import { TimeControl } from "./ports/time-control.ts"
import { ensurePlatform, openPlatform, type PlatformInput, settleSecret } from "./operations/platform/platforms.ts"
import { type AgentEndpoints, agentEmbeddingApi, type EmbeddingApi, embeddingApi, type PlatformEndpoints, platformEndpointTable } from "./endpoints/embedding.ts"

export type EngineServices = Store | Ids | Notifier | Keys | TimeControl | WebhookTransport

export interface EngineOptions {
  /** The storage adapter: `MemoryStore.layer`, `SqliteStore.layer({filename})`, or your own. */
  readonly store: Layer.Layer<Store>
  /** `virtual` stands time still until `advance` (DECISIONS #20); default `real`. */
  readonly clock?: "real" | "virtual"
  /** Where a virtual clock starts when the store has no saved time (ms since epoch). */
  readonly clockStartMs?: number
  /** Seed for reproducible ids; default draws from the CSPRNG. */
  readonly seed?: number
  /** Called for each OTP the engine would deliver (the sandbox code is always 000000). */
  readonly onOtp?: (delivery: OtpDelivery) => void
  /** How webhooks are sent; default `fetch`. */
  readonly webhookTransport?: Layer.Layer<WebhookTransport>
}

/**
 * The engine's services as one Layer, for Effect programs that compose their own runtime: every
 * endpoint program (`endpointPrograms`, `@tessera/core/operations`) runs on it. The `Engine`
 * class is this layer in a ManagedRuntime.
 *
 * One scoped context rather than the ports' layers composed (`mergeAll`, `provideMerge`): the
 * store (a layer, the embedder's choice) and a webhook transport given as a layer are built in
 * it, and the other ports' services are made by their own effects (`Keys.storedService`, …) in
 * the order they need each other. The same services and the same scope; but building composed
 * layers runs most of Effect's layer machinery (a memo map, scopes and fibers per layer) for the
 * first time at every start, ~3 ms of a cold start's ~5 for this layer (DECISIONS #509).
 */
export const engineLayer = (options: EngineOptions): Layer.Layer<EngineServices> =>
  Layer.scopedContext(
    Effect.gen(function* () {
      const store = yield* Layer.build(options.store)
      const withIds = Context.add(store, Ids, options.seed === undefined ? randomIds : seededIds(options.seed))
      const transport = options.webhookTransport === undefined ? WebhookTransport.fetchService : Context.get(yield* Layer.build(options.webhookTransport), WebhookTransport)
      const made = <S>(service: Effect.Effect<S, never, Store | Ids | Scope.Scope>) => Effect.provide(service, withIds)
      const time = options.clock === "virtual" ? yield* made(TimeControl.virtualService(options.clockStartMs ?? Date.now())) : TimeControl.realService
      return withIds.pipe(
        Context.add(Notifier, yield* made(Notifier.outboxService(options.onOtp))),
        Context.add(Keys, yield* made(Keys.storedService)),
        Context.add(TimeControl, time),
        Context.add(WebhookTransport, transport)
      )
    })
  )

/** Thrown by the Promise API when an operation fails; `error` is the tagged domain error. */
const squash = <E>(cause: Cause.Cause<E>): unknown => {
  const failure = Cause.failureOption(cause)
  return failure._tag === "Some" ? failure.value : Cause.squash(cause)
}

/**
 * The runtime the engine runs its own programs on, made from the built one (DECISIONS #531):
 * without Effect's per-fiber metrics (two counters at a fiber's start, a histogram and two more
 * at its end, with a clock read: ~300 ns of every run, and nothing in the engine reads them),
 * and without the fiber-ref values every run sets anyway (the context and the scheduler) or a
 * fiber reads from itself (its runtime flags), which a run would otherwise copy first: with none
 * left, a run's fiber refs are made without a copy. The same services and any other fiber ref
 * the layers set.
 */
const leanRuntime = <R>(built: Runtime.Runtime<R>): Runtime.Runtime<R> =>
  Runtime.make({
    context: built.context,
    runtimeFlags: RuntimeFlags.disable(built.runtimeFlags, RuntimeFlags.RuntimeMetrics),
    fiberRefs: [FiberRef.currentContext, FiberRef.currentScheduler, FiberRef.currentRuntimeFlags].reduce(FiberRefs.delete, built.fiberRefs)
  })

/**
 * The embeddable engine: the core's operations over the ports, built once from layers. Use
 * `run` for Effects, the grouped methods for Promises, and hand it to the HTTP adapter.
 */
export class Engine {
  readonly runtime: ManagedRuntime.ManagedRuntime<EngineServices, never>
  /**
   * `leanRuntime` of the built runtime, with the managed runtime's `runtimeEffect` it was made
   * under: disposing replaces that (with a failure), so a `dispose` called on `engine.runtime`
   * itself is noticed as well as the engine's own.
   */
  private lean: { readonly runtime: Runtime.Runtime<EngineServices>; readonly of: unknown } | undefined

  constructor(readonly options: EngineOptions) {
    this.runtime = ManagedRuntime.make(engineLayer(options))
  }

  /**
   * Builds an engine whose layers may be asynchronous (a store over a network driver, or
   * `AsyncMemoryStore`): resolves once every layer is built. Synchronous layers work too.
   */
  static async make(options: EngineOptions): Promise<Engine> {
    const engine = new Engine(options)
    const built = await engine.runtime.runPromiseExit(Effect.void)
    if (Exit.isSuccess(built)) return engine
    await engine.dispose()
    throw squash(built.cause)
  }

  /** Runs an Effect on the engine; rejects with the domain error when it fails. */
  run<A, E>(effect: Effect.Effect<A, E, EngineServices>): Promise<A> {
    // Through runReport: a synchronous program settles the promise without a scheduler hop.
    return new Promise((resolve, reject) =>
      this.runReport(effect, (exit) => (Exit.isSuccess(exit) ? resolve(exit.value) : reject(squash(exit.cause))))
    )
  }

  /** Runs a program that must not suspend (on an asynchronous store it throws: use `run`). */
  runSync<A, E>(effect: Effect.Effect<A, E, EngineServices>): A {
    const before = newestPendingCommit()
    const exit = this.runSyncExit(effect)
    // A synchronous caller cannot await the shared fsync: its commits are synced before it returns.
    const after = newestPendingCommit()
    if (after !== before && after !== undefined) after.barrier.waitSync(after.ticket)
    if (Exit.isSuccess(exit)) return exit.value
    throw squash(exit.cause)
  }

  /**
   * Runs an Effect and reports its Exit once what it committed is durable (DECISIONS #311): on a
   * group-commit store a write waits for the shared fsync, a program that committed nothing (a
   * read, a failure rolled back) does not wait, and a failed fsync turns the outcome into a
   * StoreError. Synchronously when the program never suspends (the memory store; SQLite for a
   * read), else when its fiber completes; avoids the scheduler hop of `runCallback` on every
   * request. Whether a synchronous run committed is read from outside the program (#440), so a
   * read adds no step to it.
   */
  runReport<A, E>(effect: Effect.Effect<A, E, EngineServices>, onExit: (exit: Exit.Exit<A, E | StoreError>) => void): void {
    const before = newestPendingCommit()
    this.report(effect, (exit, fiber) => {
      const pending = fiber === undefined ? newestPendingCommit() : fiber.getFiberRef(pendingCommit)
      if (pending === undefined || (fiber === undefined && pending === before)) return onExit(exit)
      this.afterDurable(pending, exit, onExit)
    })
  }

  /**
   * Reports `exit` once `pending` is durable, or the StoreError that says it cannot be: by the
   * barrier's callback when it has one, not a fiber of its own (DECISIONS #525).
   */
  private afterDurable<A, E>(pending: PendingCommit, exit: Exit.Exit<A, E>, onExit: (exit: Exit.Exit<A, E | StoreError>) => void): void {
    const { barrier, ticket } = pending
    if (barrier.whenDurable !== undefined) return barrier.whenDurable(ticket, (error) => onExit(error === undefined ? exit : Exit.fail(error)))
    this.report(barrier.wait(ticket), (waited) => onExit(Exit.isFailure(waited) ? Exit.failCause(waited.cause) : exit))
  }

  /** Runs synchronously as far as it goes; a program that suspends reports when its fiber completes. */
  private report<A, E>(effect: Effect.Effect<A, E, EngineServices>, onExit: (exit: Exit.Exit<A, E>, fiber?: Fiber.RuntimeFiber<A, E>) => void): void {
    const exit = this.runSyncExit(effect)
    if (Exit.isFailure(exit) && exit.cause._tag === "Die" && Runtime.isAsyncFiberException(exit.cause.defect)) {
      const fiber = exit.cause.defect.fiber as Fiber.RuntimeFiber<A, E>
      fiber.addObserver((done) => onExit(done, fiber))
      return
    }
    onExit(exit)
  }

  /**
   * `runtime.runSyncExit` on the lean runtime. Until the layers are built (a first run of an
   * engine made with `new`, or layers still building asynchronously), or once disposed, through
   * the managed runtime, which builds them, waits for them or answers that it is disposed.
   */
  private runSyncExit<A, E>(effect: Effect.Effect<A, E, EngineServices>): Exit.Exit<A, E> {
    let lean = this.lean
    if (lean === undefined || lean.of !== this.runtime.runtimeEffect) {
      const built = this.runtime.runSyncExit(Effect.runtime<EngineServices>())
      if (Exit.isFailure(built)) return this.runtime.runSyncExit(effect)
      this.lean = lean = { runtime: leanRuntime(built.value), of: this.runtime.runtimeEffect }
    }
    return Runtime.runSyncExit(lean.runtime, effect)
  }

  /** Creates the platform (or refreshes its secret) and returns it. */
  platform(input: PlatformInput): Promise<PlatformRecord> {
    return this.run(ensurePlatform(input))
  }

  /**
   * `platform(input)` for a server that answers before scrypt has run (~30 ms of CPU to derive a
   * new secret's hash, as much to check a stored one; DECISIONS #495): the platform is written
   * (a new one with a pending hash) and this engine accepts the configured secret, and only it, at
   * once. `settleSecret` is then there to call, once serving: it checks or derives the hash in
   * libuv's thread pool and stores it. A platform left pending gets its hash at the next open.
   */
  async openPlatform(input: PlatformInput): Promise<{ readonly platform: PlatformRecord; readonly settleSecret?: () => Promise<void> }> {
    const { platform, unsettled } = await this.run(openPlatform(input))
    if (!unsettled) return { platform }
    return { platform, settleSecret: () => this.run(settleSecret(input.clientId, input.clientSecret)) }
  }

  /**
   * Every endpoint of one platform, as Promises: `as(platform).customers.create(input)`, typed
   * from the endpoint table (endpoints/). Signed endpoints answer a Reply (status and body), as
   * over HTTP: 202 challenge, then the outcome.
   */
  as(platform: PlatformRecord): EmbeddingApi<PlatformEndpoints> {
    return embeddingApi(platformEndpointTable, (effect) => this.run(effect), platform)
  }

  /**
   * The `/agents/me/*` endpoints as one agent, by the access token its device code was redeemed
   * for: `asAgent(token).transferOut(body)`. Each call authenticates the token (DECISIONS #386).
   */
  asAgent(accessToken: string): EmbeddingApi<AgentEndpoints>["agentsMe"] {
    return agentEmbeddingApi(accessToken, (effect) => this.run(effect))
  }

  dispose(): Promise<void> {
    return this.runtime.dispose()
  }
}

/**
 * Builds an engine from synchronous layers (memory, SQLite): ready when this returns. A layer
 * that suspends (an asynchronous store) cannot be ready synchronously: the half-built engine is
 * disposed and this throws, naming `Engine.make`, which awaits it.
 */
export const makeEngine = (options: EngineOptions): Engine => {
  const engine = new Engine(options)
  const built = engine.runtime.runSyncExit(Effect.void)
  if (Exit.isSuccess(built)) return engine
  void engine.dispose()
  if (built.cause._tag === "Die" && Runtime.isAsyncFiberException(built.cause.defect))
    throw new Error("makeEngine: a layer is asynchronous (an asynchronous store?); use `await Engine.make(options)` instead")
  throw squash(built.cause)
}

/** `await createEngine(options)`: the same as `Engine.make`. */
export const createEngine = (options: EngineOptions): Promise<Engine> => Engine.make(options)
