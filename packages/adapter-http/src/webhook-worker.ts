import { Cause, Effect, Exit, Fiber } from "effect"
import { type Engine, WEBHOOK_STOP_GRACE_MS } from "@tessera/core"
import { logError } from "./log.ts"

// Loaded at the first pass, as the due runner's steps are (DECISIONS #504): a start has no use for it.
const deliverAll = Effect.flatten(Effect.promise(() => import("@tessera/core").then(({ deliverAll }) => deliverAll)))

export interface WebhookWorker {
  /** Runs one pass now (tests use it to avoid waiting for the timer). */
  readonly tick: () => Promise<{ readonly attempted: number; readonly delivered: number }>
  /**
   * Stops the timer; the pass under way gets WEBHOOK_STOP_GRACE_MS to finish, then is interrupted
   * (its POSTs still waiting for an answer are aborted).
   */
  readonly stop: () => Promise<void>
}

/**
 * The standalone server's delivery loop: every `intervalMs`, one pass over the outbox (see
 * `deliverAll`). Passes never overlap; all state is in the Store, so a restart resumes where the
 * last recorded attempt left off (an attempt whose outcome was not recorded is sent again: at
 * least once). Stopping waits a short grace for receivers, no more: an attempt cut short records
 * nothing and its event stays due for the next start.
 */
export const startWebhookWorker = (engine: Engine, options: { readonly intervalMs?: number } = {}): WebhookWorker => {
  type Pass = { readonly attempted: number; readonly delivered: number }
  let running: { readonly fiber: Fiber.RuntimeFiber<Pass, unknown>; readonly done: Promise<Pass> } | undefined
  let stopped = false
  const tick = () => {
    if (running !== undefined) return running.done
    const fiber = engine.runtime.runFork(deliverAll)
    let settle: (exit: Exit.Exit<Pass, unknown>) => void = () => {}
    const done = new Promise<Pass>((resolve, reject) => {
      settle = (exit) => (Exit.isSuccess(exit) ? resolve(exit.value) : reject(Exit.isInterrupted(exit) ? new Error("webhook pass interrupted") : Cause.squash(exit.cause)))
    })
    const pass = { fiber, done }
    running = pass
    // Observed once `running` is set: a pass that already finished clears it at once.
    fiber.addObserver((exit) => {
      if (running === pass) running = undefined
      settle(exit)
    })
    return done
  }
  const timer = setInterval(() => {
    tick().catch((e: unknown) => {
      if (!stopped) logError("webhook pass failed", { error: String(e) })
    })
  }, options.intervalMs ?? 250)
  timer.unref()
  return {
    tick,
    stop: async () => {
      stopped = true
      clearInterval(timer)
      const pass = running
      if (pass === undefined) return
      let grace: NodeJS.Timeout | undefined
      await Promise.race([pass.done.catch(() => undefined), new Promise((r) => (grace = setTimeout(r, WEBHOOK_STOP_GRACE_MS)))])
      clearTimeout(grace)
      await Effect.runPromise(Fiber.interrupt(pass.fiber))
    }
  }
}
