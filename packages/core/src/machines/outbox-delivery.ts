import { rfc3339 } from "../domain/time.ts"
import { BACKOFF_BASE_MS, BACKOFF_MAX_MS, DELIVERY_WINDOW_MS } from "../limits.ts"
import type { DomainError } from "../domain/envelope.ts"
import { next, type Transition } from "./transition.ts"
import type { Either } from "effect"

/**
 * One outbox event's delivery (spec "Events"; reference retry policy): PENDING until a 2xx makes
 * it DELIVERED; a failed attempt schedules a retry at an exponential backoff (1 s doubling, at
 * most 30 min apart); a 409 from the receiver (it has the event) or a failure past the 7-day
 * window makes it ABANDONED. DELIVERED and ABANDONED are final: a late attempt changes nothing.
 * Before an attempt, the instance about to send claims the event until a wall-clock deadline: while
 * the claim holds no other instance may claim it, so of several instances on one database one sends
 * it (DECISIONS #300). Recording the attempt ends the claim; an instance that stops before sending
 * releases it; one that dies leaves it to expire. Claims run on the wall clock, not the engine's:
 * they guard an HTTP attempt, which takes real time, and advancing a virtual clock must not free them.
 */
/** One attempt as the outbox records it. */
export interface DeliveryAttempt {
  readonly at: string
  readonly status?: number
  readonly error?: string
}

/** The delivery bookkeeping of an outbox event (the port's OutboxEvent has these fields). */
export interface DeliveryState {
  /** When the event was published: the delivery window runs from here. */
  readonly timestamp: string
  readonly attempts?: ReadonlyArray<DeliveryAttempt>
  readonly nextAttemptAtMs?: number
  readonly deliveredAt?: string
  readonly abandonedAt?: string
  /** Claimed for an attempt under way until this time (engine clock): not due to anyone meanwhile. */
  readonly claimedUntilWallMs?: number
}

export type DeliveryStatus = "PENDING" | "DELIVERED" | "ABANDONED"

/** What one POST to the receiver came back with: its status, or why no answer came. */
export type AttemptOutcome = { readonly status: number } | { readonly error: string }

export type DeliveryEvent =
  | { readonly _tag: "Attempted"; readonly outcome: AttemptOutcome }
  /** An instance takes the event for one attempt, from `wallNowMs` until `untilWallMs` (wall clock). */
  | { readonly _tag: "Claimed"; readonly wallNowMs: number; readonly untilWallMs: number }
  /** The instance that claimed until `untilWallMs` gives the event back without having sent it. */
  | { readonly _tag: "Released"; readonly untilWallMs: number }

export const deliveryStatus = (e: DeliveryState): DeliveryStatus =>
  e.deliveredAt !== undefined ? "DELIVERED" : e.abandonedAt !== undefined ? "ABANDONED" : "PENDING"

/** The wait after the n-th failed attempt. */
export const backoffMs = (failedAttempts: number): number => Math.min(BACKOFF_BASE_MS * 2 ** Math.max(0, failedAttempts - 1), BACKOFF_MAX_MS)

/** Whether a pending event's next attempt is due at `now` (engine clock). */
export const isDue = (e: DeliveryState, now: number): boolean => deliveryStatus(e) === "PENDING" && (e.nextAttemptAtMs ?? 0) <= now

/** Whether an instance holds a claim on the event at wall-clock time `wallNowMs`. */
export const isClaimed = (e: DeliveryState, wallNowMs: number): boolean => (e.claimedUntilWallMs ?? 0) > wallNowMs

/** Whether an attempt delivered the event: the receiver answered 2xx. */
export const delivered = (o: AttemptOutcome): boolean => "status" in o && o.status >= 200 && o.status < 300

const unclaimed = <S extends DeliveryState>(event: S): S => {
  const { claimedUntilWallMs: _claim, ...rest } = event
  return rest as S
}

/**
 * Generic in the record so the outbox's own fields ride along untouched. A claim on an event that
 * is not due, or that another instance holds, and a release by a claim that is no longer the
 * event's change nothing: the caller sees the same state and does not send.
 */
export const outboxDelivery = <S extends DeliveryState>(event: S, e: DeliveryEvent, now: number): Either.Either<Transition<S>, DomainError> => {
  if (deliveryStatus(event) !== "PENDING") return next(event)
  if (e._tag === "Claimed")
    return next(isDue(event, now) && !isClaimed(event, e.wallNowMs) && e.untilWallMs > e.wallNowMs ? { ...event, claimedUntilWallMs: e.untilWallMs } : event)
  if (e._tag === "Released") return next(event.claimedUntilWallMs === e.untilWallMs ? unclaimed(event) : event)
  const { outcome } = e
  const attempt: DeliveryAttempt = "status" in outcome ? { at: rfc3339(now), status: outcome.status } : { at: rfc3339(now), error: outcome.error }
  const attempts = [...(event.attempts ?? []), attempt]
  const base = { ...unclaimed(event), attempts }
  if (delivered(outcome)) return next({ ...base, deliveredAt: rfc3339(now) })
  const gaveUp = ("status" in outcome && outcome.status === 409) || now - Date.parse(event.timestamp) > DELIVERY_WINDOW_MS
  return next(gaveUp ? { ...base, abandonedAt: rfc3339(now) } : { ...base, nextAttemptAtMs: now + backoffMs(attempts.length) })
}
