import { describe, expect, it } from "vitest"
import { Effect, Exit, Fiber, FiberId } from "effect"
import { serialisedTransaction, WritePermit } from "@tessera/core/store-kit"

const hooks = { begin: () => {}, commit: () => {}, rollback: () => {} }
const tick = () => new Promise((r) => setTimeout(r, 5))

describe("the write permit under interruption", () => {
  it("a transaction interrupted just as the permit is handed to it passes the permit on", async () => {
    const permit = new WritePermit()
    const tx = serialisedTransaction(permit, hooks)
    permit.tryTake()
    const first = Effect.runFork(tx(Effect.succeed("first")))
    const second = Effect.runFork(tx(Effect.succeed("second")))
    await tick()
    // The holder finishes: the permit goes to the first waiter, which is interrupted before it runs.
    permit.release()
    first.unsafeInterruptAsFork(FiberId.none)
    expect(Exit.isInterrupted(await Effect.runPromise(Fiber.await(first)))).toBe(true)
    // The next waiter gets it, and after it the permit is free.
    expect(await Effect.runPromise(Fiber.join(second))).toBe("second")
    expect(permit.tryTake()).toBe(true)
  })

  it("a transaction interrupted while waiting leaves the queue without the permit", async () => {
    const permit = new WritePermit()
    const tx = serialisedTransaction(permit, hooks)
    permit.tryTake()
    const waiting = Effect.runFork(tx(Effect.succeed("never")))
    await tick()
    await Effect.runPromise(Fiber.interrupt(waiting))
    // The holder still has it; once released, nobody is waiting and it is free.
    expect(permit.tryTake()).toBe(false)
    permit.release()
    expect(permit.tryTake()).toBe(true)
  })
})
