// GroupCommit's callback barrier (DECISIONS #525), on its own with the log's sync under the
// test's control: what the engine relies on to answer each write once, only when it is durable.
import { describe, expect, it } from "vitest"
import { Effect, Exit, Fiber } from "effect"
import { StoreError } from "@tessera/core"
import { GroupCommit, type WalSync } from "@tessera/adapter-sqlite"

/** A log whose syncs wait for the test: `finish(error?)` completes the oldest one started. */
const controlled = () => {
  const started: Array<(error: Error | null) => void> = []
  const sync: WalSync = { sync: (done) => started.push(done), syncNow: () => {}, close: () => {} }
  return { sync, started, finish: (error: Error | null = null) => started.shift()!(error) }
}

const diskError = () => Object.assign(new Error("EIO: i/o error, fdatasync"), { code: "EIO" })

describe("GroupCommit.whenDurable", () => {
  it("answers once the sync after the commit completes, at once for a ticket already synced, and exactly once", () => {
    const log = controlled()
    const barrier = new GroupCommit(log.sync)
    const first = barrier.commit()
    const answers: Array<string> = []
    barrier.whenDurable(first.ticket, (e) => answers.push(e === undefined ? "first durable" : e.message))
    expect(log.started).toHaveLength(1)
    expect(answers).toEqual([])
    log.finish()
    expect(answers).toEqual(["first durable"])
    barrier.whenDurable(first.ticket, (e) => answers.push(e === undefined ? "again, at once" : e.message))
    expect(answers).toEqual(["first durable", "again, at once"])
    expect(log.started).toHaveLength(0)
  })

  it("starts the next group's sync before it answers the writes of the one that completed", () => {
    const log = controlled()
    const barrier = new GroupCommit(log.sync)
    const first = barrier.commit()
    const syncsStartedWhenAnswered: Array<number> = []
    barrier.whenDurable(first.ticket, () => syncsStartedWhenAnswered.push(log.started.length))
    // Committed while the first sync runs: the next group.
    const second = barrier.commit()
    let secondAnswered = false
    barrier.whenDurable(second.ticket, () => (secondAnswered = true))
    expect(log.started).toHaveLength(1)
    log.finish()
    expect(syncsStartedWhenAnswered).toEqual([1])
    expect(secondAnswered).toBe(false)
    log.finish()
    expect(secondAnswered).toBe(true)
  })

  it("a failed sync answers every write it covered with the StoreError, and every later ticket at once", () => {
    const log = controlled()
    const barrier = new GroupCommit(log.sync)
    const tickets = [barrier.commit(), barrier.commit()]
    const errors: Array<unknown> = []
    for (const t of tickets) barrier.whenDurable(t.ticket, (e) => errors.push(e))
    log.finish(diskError())
    expect(errors).toHaveLength(2)
    for (const e of errors) {
      expect(e).toBeInstanceOf(StoreError)
      expect((e as StoreError).message).toContain("EIO")
    }
    const later = barrier.commit()
    let answer: unknown = "not yet"
    barrier.whenDurable(later.ticket, (e) => (answer = e))
    expect(answer).toBe(errors[0])
    expect(log.started).toHaveLength(0)
  })

  it("a waiter whose answer throws does not keep the others waiting; its error is thrown after", async () => {
    const log = controlled()
    const barrier = new GroupCommit(log.sync)
    const answered: Array<number> = []
    // Three writes of one group: committed before the first wait starts its sync.
    const tickets = [barrier.commit(), barrier.commit(), barrier.commit()]
    for (const [i, t] of tickets.entries()) {
      const n = i + 1
      barrier.whenDurable(t.ticket, () => {
        answered.push(n)
        if (n === 1) throw new Error("the first answer could not be written")
      })
    }
    // The rethrow is an uncaught exception: caught here instead of by the test runner.
    const runners = process.listeners("uncaughtException")
    process.removeAllListeners("uncaughtException")
    try {
      const thrown = new Promise<unknown>((resolve) => process.once("uncaughtException", resolve))
      log.finish()
      expect(answered).toEqual([1, 2, 3])
      expect(((await thrown) as Error).message).toBe("the first answer could not be written")
    } finally {
      process.removeAllListeners("uncaughtException")
      for (const l of runners) process.on("uncaughtException", l)
    }
  })

  it("wait, the same as a program: completes after the sync, fails with the StoreError, and an interrupted wait is answered nothing", async () => {
    const log = controlled()
    const barrier = new GroupCommit(log.sync)
    const ok = Effect.runPromiseExit(barrier.wait(barrier.commit().ticket))
    log.finish()
    expect(Exit.isSuccess(await ok)).toBe(true)

    const interrupted = Effect.runFork(barrier.wait(barrier.commit().ticket))
    await Effect.runPromise(Fiber.interrupt(interrupted))
    const failing = Effect.runPromiseExit(barrier.wait(barrier.commit().ticket))
    log.finish(diskError())
    const failed = await failing
    expect(Exit.isFailure(failed) && failed.cause._tag === "Fail" && failed.cause.error instanceof StoreError).toBe(true)
    expect(Exit.isInterrupted(await Effect.runPromise(Fiber.await(interrupted)))).toBe(true)
  })
})
