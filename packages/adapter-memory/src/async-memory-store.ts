import { Effect, Layer } from "effect"
import { Store } from "@tessera/core"
import { MemoryStoreHandle } from "./memory-store.ts"

/** A macrotask boundary: the fiber suspends and resumes from the event loop, as after real I/O. */
const hop = <X, E>(self: Effect.Effect<X, E>): Effect.Effect<X, E> =>
  Effect.zipRight(
    Effect.async<void>((resume) => {
      const t = setImmediate(() => resume(Effect.void))
      return Effect.sync(() => clearImmediate(t))
    }),
    self
  )

/**
 * The memory store behind a real asynchronous boundary: every call and every transaction hook
 * (begin, commit, rollback) suspends the fiber until the next turn of the event loop. A test
 * double for asynchronous drivers (a network database): it shows that the engine, its HTTP
 * adapter and the contract hold when no store call answers synchronously. Isolation is the
 * memory store's (writes are serialised; a read outside a transaction may see an open
 * transaction's writes), so it is for tests, not for serving.
 */
export const AsyncMemoryStore = {
  make: (): MemoryStoreHandle => new MemoryStoreHandle(undefined, { hop }),
  /** `Store` on a fresh asynchronous memory world; the layer itself is built asynchronously too. */
  get layer(): Layer.Layer<Store> {
    return Layer.effect(Store, hop(Effect.sync(() => new MemoryStoreHandle(undefined, { hop }).service)))
  }
}
