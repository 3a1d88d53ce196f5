import { describe, expect, it } from "vitest"
import { Effect, Exit } from "effect"
import { makeEngine } from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"

// Engine.runReport is how the HTTP adapter runs every request: synchronous programs answer in
// the same tick; a program that suspends must still answer exactly once, with its own result.
describe("Engine.runReport", () => {
  it("reports a synchronous program before returning", () => {
    const engine = makeEngine({ store: MemoryStore.layer })
    const seen: Array<Exit.Exit<number, unknown>> = []
    engine.runReport(Effect.succeed(41).pipe(Effect.map((n) => n + 1)), (exit) => seen.push(exit))
    expect(seen).toEqual([Exit.succeed(42)])
  })

  it("reports a suspending program once, when it completes, with its value or failure", async () => {
    const engine = makeEngine({ store: MemoryStore.layer })
    const ok = await new Promise<Array<Exit.Exit<string, unknown>>>((resolve) => {
      const seen: Array<Exit.Exit<string, unknown>> = []
      engine.runReport(Effect.promise(() => new Promise<string>((r) => setTimeout(() => r("late"), 5))), (exit) => {
        seen.push(exit)
        setTimeout(() => resolve(seen), 10)
      })
      expect(seen).toEqual([])
    })
    expect(ok).toEqual([Exit.succeed("late")])
    const failed = await new Promise<Exit.Exit<never, unknown>>((resolve) =>
      engine.runReport(Effect.zipRight(Effect.sleep("2 millis"), Effect.fail("boom")), resolve)
    )
    expect(Exit.isFailure(failed) && failed.cause._tag === "Fail" && failed.cause.error).toBe("boom")
  })
})
