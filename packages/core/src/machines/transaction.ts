import { InvalidStateTransition, TransactionNotCancellable, TransactionNotPendingPlatformApproval } from "../domain/errors.ts"
import { uuidOf } from "../domain/ids.ts"
import { rfc3339 } from "../domain/time.ts"
import type { PlanStep } from "../domain/transactions/outcome-plan.ts"
import {
  type Funds,
  outgoingStatuses,
  type TransactionRecord,
  type TransactionStatus,
  transactionView
} from "../domain/transactions/transaction.ts"
import { type Emitted, type Machine, next, refuse } from "./transition.ts"

/**
 * A transaction and its refund as one pure machine. The statuses move forward only; FAILED,
 * REJECTED, REFUNDED and EXPIRED never change, and COMPLETED only to FAILED (a bank return).
 * A refund starts on a FAILED transaction (or one being cancelled) and ends COMPLETED or
 * FAILED, once. Each change publishes the webhook the reference names for it.
 */
export type TransactionEvent =
  | { readonly _tag: "Apply"; readonly step: PlanStep }
  | { readonly _tag: "Approve" }
  | { readonly _tag: "Reject" }
  | { readonly _tag: "Cancel" }
  | { readonly _tag: "Confirm"; readonly at?: string }

const forward: Readonly<Record<TransactionStatus, ReadonlyArray<TransactionStatus>>> = {
  CREATED: ["PENDING", "PENDING_AUTHORIZATION", "PROCESSING", "COMPLETED", "FAILED", "REJECTED", "EXPIRED"],
  PENDING: ["PENDING_AUTHORIZATION", "PROCESSING", "COMPLETED", "FAILED", "REJECTED", "EXPIRED"],
  PENDING_AUTHORIZATION: ["PENDING", "PROCESSING", "FAILED", "EXPIRED"],
  PROCESSING: ["COMPLETED", "FAILED", "REFUNDED"],
  COMPLETED: ["FAILED"],
  FAILED: [],
  REJECTED: [],
  REFUNDED: [],
  EXPIRED: []
}

/** Statuses that never change again (COMPLETED may still become FAILED after a bank return). */
export const TERMINAL: ReadonlySet<TransactionStatus> = new Set(["COMPLETED", "FAILED", "REJECTED", "REFUNDED", "EXPIRED"])

/** Nothing more will happen to it on its own: a terminal status, no refund under way, no approval awaited. */
export const isSettled = (t: TransactionRecord): boolean =>
  TERMINAL.has(t.status) && t.refund?.status !== "PENDING" && t.awaitingApproval !== true

const fundsMoves: Readonly<Record<Funds, ReadonlyArray<Funds>>> = {
  NONE: ["HELD", "SENT", "INCOMING", "RECEIVED"],
  HELD: ["SENT", "RELEASED"],
  SENT: ["RETURNED"],
  INCOMING: ["RECEIVED", "RELEASED"],
  RECEIVED: [],
  RELEASED: [],
  RETURNED: []
}

/** Whether the money may move from `from` to `to` (each movement happens once). */
export const canMoveFunds = (from: Funds, to: Funds): boolean => fundsMoves[from].includes(to)

/**
 * What a movement of funds does to the internal account (available, held, pending credit) and
 * to the world outside the platform (`external`): each row sums to zero, which is how money is
 * conserved. HELD counts in totalBalance, not in balance; INCOMING counts in totalBalance only.
 */
export const fundsDelta = (
  from: Funds,
  to: Funds,
  amount: number
): { readonly available: number; readonly held: number; readonly incoming: number; readonly external: number } => {
  const d = { available: 0, held: 0, incoming: 0, external: 0 }
  const leave = (k: keyof typeof d) => (d[k] -= amount)
  const enter = (k: keyof typeof d) => (d[k] += amount)
  const where = (f: Funds): keyof typeof d | undefined =>
    f === "HELD" ? "held" : f === "INCOMING" ? "incoming" : f === "SENT" ? "external" : f === "RECEIVED" ? "available" : undefined
  // Where the money was before the move: NONE is available for a payout, outside for a credit.
  const origin = from === "NONE" ? (to === "INCOMING" || to === "RECEIVED" ? "external" : "available") : where(from)
  // RELEASED goes back where it came from; RETURNED comes back from outside.
  const target = to === "RELEASED" ? (from === "INCOMING" ? "external" : "available") : to === "RETURNED" ? "available" : where(to)
  if (origin !== undefined && target !== undefined && origin !== target) {
    leave(origin)
    enter(target)
  }
  return d
}

/** The webhook a change publishes: `OUTGOING_PAYMENT.*` or `INCOMING_PAYMENT.*`, as the reference names them. */
export const webhookType = (t: TransactionRecord, change: { readonly status?: TransactionStatus; readonly refund?: string }): string | undefined => {
  const family = t.type === "OUTGOING" ? "OUTGOING_PAYMENT" : "INCOMING_PAYMENT"
  if (change.refund !== undefined) return `${family}.REFUND_${change.refund}`
  switch (change.status) {
    case "PENDING":
    case "COMPLETED":
    case "FAILED":
      return `${family}.${change.status}`
    case "REJECTED":
      return `${family}.FAILED`
    case "REFUNDED":
      return `${family}.REFUND_COMPLETED`
    case "PENDING_AUTHORIZATION":
    case "PROCESSING":
    case "EXPIRED":
      return t.type === "OUTGOING" ? `${family}.${change.status}` : change.status === "EXPIRED" ? `${family}.FAILED` : undefined
    default:
      return undefined
  }
}

const emitFor = (t: TransactionRecord, change: { readonly status?: TransactionStatus; readonly refund?: string }): ReadonlyArray<Emitted> => {
  const type = webhookType(t, change)
  return type === undefined ? [] : [{ type, resourceId: t.id, data: transactionView(t) }]
}

const invalid = (t: TransactionRecord, what: string) =>
  refuse<TransactionRecord>(new InvalidStateTransition({ message: `Transaction ${t.id} cannot ${what} from ${t.status}`, details: { transactionId: t.id, status: t.status } }))

const moveFunds = (t: TransactionRecord, to: Funds | undefined): TransactionRecord | undefined => {
  if (to === undefined || t.ledger === undefined || t.ledger.funds === to) return t
  return canMoveFunds(t.ledger.funds, to) ? { ...t, ledger: { ...t.ledger, funds: to } } : undefined
}

const applyStep = (t: TransactionRecord, step: PlanStep, now: number) => {
  const at = rfc3339(now)
  if ((step.status === undefined) === (step.refund === undefined)) return invalid(t, "take a step that changes both or neither of status and refund")
  let out: TransactionRecord
  if (step.status !== undefined) {
    if (!forward[t.status].includes(step.status) && !(t.status === step.status && step.awaitApproval === true)) return invalid(t, `move to ${step.status}`)
    if (t.type === "OUTGOING" && !outgoingStatuses.has(step.status)) return invalid(t, `move to ${step.status} (not an outgoing status)`)
    out = {
      ...t,
      status: step.status,
      updatedAt: at,
      ...(step.failureReason === undefined ? {} : { failureReason: step.failureReason }),
      ...(step.status === "COMPLETED" ? { settledAt: at } : {}),
      ...(step.awaitApproval === true ? { awaitingApproval: true } : {})
    }
  } else {
    const current = t.refund?.status
    const starts = current === undefined && step.refund === "PENDING" && ["FAILED", "PROCESSING"].includes(t.status)
    const ends = current === "PENDING" && step.refund !== "PENDING"
    if (!starts && !ends) return invalid(t, `move its refund to ${step.refund}`)
    out = {
      ...t,
      updatedAt: at,
      refund: starts
        ? { reference: `Refund:${uuidOf(t.id)}`, initiatedAt: at, status: "PENDING", ...(step.refundReason === undefined ? {} : { reason: step.refundReason }) }
        : { ...t.refund!, status: step.refund!, settledAt: at }
    }
  }
  const moved = moveFunds(out, step.funds)
  if (moved === undefined) return invalid(t, `move its funds from ${t.ledger?.funds} to ${step.funds}`)
  return next(moved, emitFor(moved, step.status !== undefined ? { status: step.status } : { refund: step.refund! }))
}

export const transactionStep: Machine<TransactionRecord, TransactionEvent> = (t, event, now) => {
  switch (event._tag) {
    case "Apply":
      return applyStep(t, event.step, now)
    case "Approve":
      if (t.awaitingApproval !== true) return refuse(notPendingApproval(t))
      return next({ ...t, awaitingApproval: false, updatedAt: rfc3339(now) })
    case "Reject": {
      if (t.awaitingApproval !== true) return refuse(notPendingApproval(t))
      const out = moveFunds({ ...t, status: "REJECTED", awaitingApproval: false, updatedAt: rfc3339(now) }, t.ledger?.funds === "INCOMING" ? "RELEASED" : undefined)!
      return next(out, emitFor(out, { status: "REJECTED" }))
    }
    case "Cancel": {
      if (!isCancellable(t)) {
        return refuse(new TransactionNotCancellable({ message: `Transaction ${t.id} is ${t.status} and can no longer be cancelled`, details: { transactionId: t.id, status: t.status } }))
      }
      const at = rfc3339(now)
      const released = t.ledger?.funds === "HELD" || t.ledger?.funds === "INCOMING" ? "RELEASED" : undefined
      const out = moveFunds(
        {
          ...t,
          status: "FAILED",
          updatedAt: at,
          ...(t.type === "OUTGOING" ? { refund: { reference: `Refund:${uuidOf(t.id)}`, initiatedAt: at, settledAt: at, status: "COMPLETED" as const, reason: "USER_CANCELLATION" as const } } : {})
        },
        released
      )!
      return next(out, emitFor(out, { status: "FAILED" }))
    }
    case "Confirm":
      return next({ ...t, receiptDeliveryConfirmedAt: event.at ?? rfc3339(now), updatedAt: rfc3339(now) })
  }
}

/**
 * A transfer can be cancelled while it has not started processing (DECISIONS #185): CREATED,
 * PENDING or PENDING_AUTHORIZATION, its money not yet sent, no approval awaited.
 */
export const isCancellable = (t: TransactionRecord): boolean =>
  (t.status === "CREATED" || t.status === "PENDING" || t.status === "PENDING_AUTHORIZATION") &&
  t.awaitingApproval !== true &&
  t.ledger?.funds !== "SENT"

const notPendingApproval = (t: TransactionRecord) =>
  new TransactionNotPendingPlatformApproval({
    message: `Transaction ${t.id} is not waiting for the platform's approval`,
    details: { transactionId: t.id, status: t.status }
  })
