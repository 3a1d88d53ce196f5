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
}

export type DeliveryStatus = "PENDING" | "DELIVERED" | "ABANDONED"

/** What one POST to the receiver came back with: its status, or why no answer came. */
export type AttemptOutcome = { readonly status: number } | { readonly error: string }

export type DeliveryEvent = { readonly _tag: "Attempted"; readonly outcome: AttemptOutcome }

export const deliveryStatus = (e: DeliveryState): DeliveryStatus =>
  e.deliveredAt !== undefined ? "DELIVERED" : e.abandonedAt !== undefined ? "ABANDONED" : "PENDING"

/** The wait after the n-th failed attempt. */
export const backoffMs = (failedAttempts: number): number => Math.min(BACKOFF_BASE_MS * 2 ** Math.max(0, failedAttempts - 1), BACKOFF_MAX_MS)

/** Whether a pending event's next attempt is due at `now`. */
export const isDue = (e: DeliveryState, now: number): boolean => deliveryStatus(e) === "PENDING" && (e.nextAttemptAtMs ?? 0) <= now

/** Whether an attempt delivered the event: the receiver answered 2xx. */
export const delivered = (o: AttemptOutcome): boolean => "status" in o && o.status >= 200 && o.status < 300

/** Generic in the record so the outbox's own fields ride along untouched. */
export const outboxDelivery = <S extends DeliveryState>(event: S, { outcome }: DeliveryEvent, now: number): Either.Either<Transition<S>, DomainError> => {
  if (deliveryStatus(event) !== "PENDING") return next(event)
  const attempt: DeliveryAttempt = "status" in outcome ? { at: rfc3339(now), status: outcome.status } : { at: rfc3339(now), error: outcome.error }
  const attempts = [...(event.attempts ?? []), attempt]
  const base = { ...event, attempts }
  if (delivered(outcome)) return next({ ...base, deliveredAt: rfc3339(now) })
  const gaveUp = ("status" in outcome && outcome.status === 409) || now - Date.parse(event.timestamp) > DELIVERY_WINDOW_MS
  return next(gaveUp ? { ...base, abandonedAt: rfc3339(now) } : { ...base, nextAttemptAtMs: now + backoffMs(attempts.length) })
}
