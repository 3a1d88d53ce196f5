import { Conflict } from "../domain/errors.ts"
import { type Machine, next, refuse } from "./transition.ts"

/** The reference's quote statuses. */
export const quoteStatuses = ["PENDING", "PENDING_AUTHORIZATION", "PROCESSING", "COMPLETED", "FAILED", "EXPIRED"] as const
export type QuoteStatus = (typeof quoteStatuses)[number]

/** What the machine needs of a quote: its status and until when it may be executed. */
export interface QuoteState {
  readonly status: QuoteStatus
  readonly expiresAtMs: number
}

/**
 * - Execute: an execute call, or (real-time funding) the funds arriving: the transfer starts.
 * - RequireAuthorization: an SCA customer's quote must be authorized first (its creation with a
 *   real-time source, or an execute call): PENDING to PENDING_AUTHORIZATION (DECISIONS #230).
 * - Authorize: a PENDING_AUTHORIZATION quote's challenge was satisfied; it may now be executed.
 * - Settle: the quote's transaction reached an end state; COMPLETED may still become FAILED
 *   (a receiving bank returns the payment, suffix 005).
 * - Expire: the clock passed `expiresAt` before the quote was executed.
 */
export type QuoteEvent =
  | { readonly _tag: "Execute" }
  | { readonly _tag: "RequireAuthorization" }
  | { readonly _tag: "Authorize" }
  | { readonly _tag: "Settle"; readonly outcome: "COMPLETED" | "FAILED" }
  | { readonly _tag: "Expire" }

const unexecuted = (s: QuoteStatus) => s === "PENDING" || s === "PENDING_AUTHORIZATION"

/**
 * The status a quote has at `now`: an unexecuted quote is EXPIRED once `expiresAt` passed,
 * whether or not anything wrote that down (expiry is a fact of the clock, not a stored event).
 */
export const quoteStatusAt = (q: QuoteState, now: number): QuoteStatus =>
  unexecuted(q.status) && now >= q.expiresAtMs ? "EXPIRED" : q.status

/** 409 for an execute the quote's status does not allow (reference: "already confirmed, expired, or in invalid state"). */
export const cannotExecute = (status: QuoteStatus) =>
  new Conflict({
    message:
      status === "EXPIRED"
        ? "The quote expired; create a new quote"
        : status === "PENDING_AUTHORIZATION"
          ? "The quote awaits authorization"
          : "The quote was already executed",
    details: { reason: status === "EXPIRED" ? "QUOTE_EXPIRED" : status === "PENDING_AUTHORIZATION" ? "QUOTE_PENDING_AUTHORIZATION" : "QUOTE_ALREADY_EXECUTED", status }
  })

const invalid = (event: QuoteEvent["_tag"], status: QuoteStatus) =>
  new Conflict({ message: `A ${status} quote cannot take ${event}`, details: { reason: "INVALID_QUOTE_STATE", status } })

/** The quote machine: pure, and given the time (expiry is judged at `now`). */
export const quoteMachine: Machine<QuoteState, QuoteEvent> = (state, event, now) => {
  const status = quoteStatusAt(state, now)
  switch (event._tag) {
    case "Execute":
      return status === "PENDING" ? next({ ...state, status: "PROCESSING" }) : refuse(cannotExecute(status))
    case "RequireAuthorization":
      return status === "PENDING" ? next({ ...state, status: "PENDING_AUTHORIZATION" }) : refuse(cannotExecute(status))
    case "Authorize":
      return status === "PENDING_AUTHORIZATION" ? next({ ...state, status: "PENDING" }) : refuse(invalid(event._tag, status))
    case "Settle":
      if (status === "PROCESSING" || (status === "COMPLETED" && event.outcome === "FAILED")) return next({ ...state, status: event.outcome })
      // A settlement already recorded is not news: the same outcome twice changes nothing.
      if (status === event.outcome) return next(state)
      return refuse(invalid(event._tag, status))
    case "Expire":
      return status === "EXPIRED" ? next({ ...state, status: "EXPIRED" }) : refuse(invalid(event._tag, status))
  }
}

/** The quote's status once its transaction is in `transactionStatus` (a quote follows its transaction). */
export const quoteStatusForTransaction = (transactionStatus: string): "COMPLETED" | "FAILED" | undefined =>
  transactionStatus === "COMPLETED" ? "COMPLETED" : transactionStatus === "FAILED" || transactionStatus === "REJECTED" || transactionStatus === "REFUNDED" ? "FAILED" : undefined
