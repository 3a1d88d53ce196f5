import { deliverAll, type Engine } from "@tessera/core"
import { logError } from "./log.ts"

export interface WebhookWorker {
  /** Runs one pass now (tests use it to avoid waiting for the timer). */
  readonly tick: () => Promise<{ readonly attempted: number; readonly delivered: number }>
  readonly stop: () => Promise<void>
}

/**
 * The standalone server's delivery loop: every `intervalMs`, one pass over the outbox (see
 * `deliverAll`). Passes never overlap; all state is in the Store, so a restart resumes where the
 * last recorded attempt left off (an attempt whose outcome was not recorded is sent again: at
 * least once).
 */
export const startWebhookWorker = (engine: Engine, options: { readonly intervalMs?: number } = {}): WebhookWorker => {
  let running: Promise<{ attempted: number; delivered: number }> | undefined
  const tick = () => {
    running ??= engine.run(deliverAll).finally(() => {
      running = undefined
    })
    return running
  }
  const timer = setInterval(() => {
    tick().catch((e: unknown) => logError("webhook pass failed", { error: String(e) }))
  }, options.intervalMs ?? 250)
  timer.unref()
  return {
    tick,
    stop: async () => {
      clearInterval(timer)
      await running?.catch(() => undefined)
    }
  }
}
