import { InvalidInput } from "../domain/errors.ts"
import type { ResetStatus, ScaResetRecord } from "../domain/sca/records.ts"
import { SCA_RESET_LIVENESS_MS } from "../limits.ts"
import { next, refuse, type Machine } from "./transition.ts"

/**
 * A 2FA reset (DECISIONS #227). Until completed, its status is read off the clock: INITIATED
 * while the sandbox's liveness check runs (`SCA_RESET_LIVENESS_MS` from the start), then
 * LIVENESS_PASSED, EXPIRED once its window closed. Complete is allowed only at LIVENESS_PASSED
 * (400 otherwise: "not ready", or no longer possible), and makes it COMPLETED for good.
 * The sandbox never rejects a liveness check, so PENDING_REVIEW and REJECTED do not occur.
 */
export const resetStatusAt = (r: ScaResetRecord, now: number): ResetStatus =>
  r.completedAtMs !== undefined
    ? "COMPLETED"
    : now >= r.expiresAtMs
      ? "EXPIRED"
      : now >= r.startedAtMs + SCA_RESET_LIVENESS_MS
        ? "LIVENESS_PASSED"
        : "INITIATED"

export type ScaResetEvent = { readonly _tag: "Complete" }

export const scaResetMachine: Machine<ScaResetRecord, ScaResetEvent> = (r, _event, now) => {
  const status = resetStatusAt(r, now)
  if (status === "LIVENESS_PASSED") return next({ ...r, completedAtMs: now })
  return refuse(
    new InvalidInput({
      message:
        status === "INITIATED" ? "The reset is not ready: liveness has not passed yet" : status === "COMPLETED" ? "The reset was already completed" : "The reset window closed; start a new reset",
      details: { reason: status === "INITIATED" ? "RESET_NOT_READY" : status === "COMPLETED" ? "RESET_ALREADY_COMPLETED" : "RESET_EXPIRED", status }
    })
  )
}
