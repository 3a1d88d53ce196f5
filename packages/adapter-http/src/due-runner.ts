import { Effect } from "effect"
import { DUE_RUNNER_INTERVAL_MS, type Engine, TimeControl } from "@tessera/core"
import { logError } from "./log.ts"

export interface DueRunner {
  /** Runs one pass now: applies every outcome step due on the engine's clock, answers how many. */
  readonly tick: () => Promise<number>
  /** Stops the timer and waits for the pass under way, if any (each step is its own short transaction). */
  readonly stop: () => Promise<void>
}

/**
 * The standalone server's outcome timer: every `intervalMs`, one pass of `runDueSteps`, so on a
 * real clock a 005 transfer fails about 30 s after it started without anyone reading it. Passes
 * never overlap in one process; another process on the same SQLite file may run its own, and
 * each step still applies once (it is consumed in the transaction that applies it). On a virtual
 * clock the advance applies what it makes due; the timer then picks up steps left due by a restart,
 * and those made due by an advance another instance on the same database answered: each pass first
 * reads the stored time (DECISIONS #302).
 */
export const startDueRunner = (engine: Engine, options: { readonly intervalMs?: number } = {}): DueRunner => {
  let running: Promise<number> | undefined
  let stopped = false
  const tick = (): Promise<number> => {
    if (running !== undefined) return running
    // Loaded at the first pass: the outcome steps reach every money-moving group, which a
    // server's start has no use for (the CLI bundle then evaluates them here, DECISIONS #504).
    const pass = import("@tessera/core").then(({ runDueSteps }) => engine.run(Effect.zipRight(Effect.flatMap(TimeControl, (c) => c.sync), runDueSteps))).finally(() => {
      if (running === pass) running = undefined
    })
    running = pass
    return pass
  }
  const timer = setInterval(() => {
    tick().catch((e: unknown) => {
      if (!stopped) logError("outcome pass failed", { error: String(e) })
    })
  }, options.intervalMs ?? DUE_RUNNER_INTERVAL_MS)
  timer.unref()
  return {
    tick,
    stop: async () => {
      stopped = true
      clearInterval(timer)
      await running?.catch(() => undefined)
    }
  }
}
