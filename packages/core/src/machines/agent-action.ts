import type { AgentActionRecord } from "../domain/agents/agent.ts"
import { Conflict } from "../domain/errors.ts"
import { rfc3339 } from "../domain/time.ts"
import { type Emitted, type Machine, next, refuse } from "./transition.ts"

/**
 * An agent action (DECISIONS #378): submitted PENDING_APPROVAL (or APPROVED when the policy lets
 * it run at once), then decided once by the platform. Approve moves a pending action to APPROVED,
 * or to FAILED when its approval window has passed; Run records the transaction that the
 * approved action started, once; Fail records that running it failed. Reject moves a pending
 * action to REJECTED; Abandon moves a pending action that can no longer be decided (its agent is
 * deleted) to FAILED with the reason, nothing run. REJECTED and FAILED are final, and an APPROVED action runs exactly once:
 * a second Run is refused, so nothing can execute twice.
 */
export type AgentActionEvent =
  | { readonly _tag: "Approve" }
  | { readonly _tag: "Reject"; readonly reason?: string }
  | { readonly _tag: "Run"; readonly transactionId: string }
  | { readonly _tag: "Fail"; readonly reason: string }
  | { readonly _tag: "Abandon"; readonly reason: string }

/** The reference's 409 for an action that is not waiting for a decision. */
const notPending = (a: AgentActionRecord) =>
  new Conflict({
    message: `Agent action ${a.id} is ${a.status}, not PENDING_APPROVAL`,
    details: { reason: "AGENT_ACTION_NOT_PENDING_APPROVAL", actionId: a.id, status: a.status }
  })

/** Whether an approved action still has to run (it is APPROVED without a transaction). */
export const awaitingRun = (a: Pick<AgentActionRecord, "status" | "transactionId">): boolean => a.status === "APPROVED" && a.transactionId === undefined

/** An approval window that has passed: approving the action fails it instead of running it. */
export const approvalExpired = (a: Pick<AgentActionRecord, "expiresAt">, now: number): boolean => Date.parse(a.expiresAt) <= now

export const agentAction: Machine<AgentActionRecord, AgentActionEvent> = (a, event, now) => {
  const at = rfc3339(now)
  switch (event._tag) {
    case "Approve":
      if (a.status !== "PENDING_APPROVAL") return refuse(notPending(a))
      if (approvalExpired(a, now)) return next({ ...a, status: "FAILED", failureReason: "APPROVAL_WINDOW_EXPIRED", updatedAt: at })
      return next({ ...a, status: "APPROVED", updatedAt: at })
    case "Reject": {
      if (a.status !== "PENDING_APPROVAL") return refuse(notPending(a))
      const { failureReason: _none, ...rest } = a
      return next({ ...rest, status: "REJECTED", ...(event.reason === undefined ? {} : { rejectionReason: event.reason }), updatedAt: at })
    }
    case "Run":
      if (!awaitingRun(a))
        return refuse(new Conflict({ message: `Agent action ${a.id} cannot run: it is ${a.status}${a.transactionId === undefined ? "" : " and already ran"}`, details: { reason: "AGENT_ACTION_NOT_RUNNABLE", actionId: a.id, status: a.status } }))
      return next({ ...a, transactionId: event.transactionId, updatedAt: at })
    case "Fail":
      if (!awaitingRun(a)) return refuse(notPending(a))
      return next({ ...a, status: "FAILED", failureReason: event.reason, updatedAt: at })
    case "Abandon":
      if (a.status !== "PENDING_APPROVAL") return refuse(notPending(a))
      return next({ ...a, status: "FAILED", failureReason: approvalExpired(a, now) ? "APPROVAL_WINDOW_EXPIRED" : event.reason, updatedAt: at })
  }
}

/**
 * A new action as the policy decided it: APPROVED (to run at once) or PENDING_APPROVAL, the
 * latter announced to the platform by AGENT_ACTION.PENDING_APPROVAL with the action's view.
 */
export const submittedAction = (
  base: Omit<AgentActionRecord, "status">,
  decision: "RUN" | "APPROVAL",
  view: (a: AgentActionRecord) => unknown
): { readonly action: AgentActionRecord; readonly emit: ReadonlyArray<Emitted> } => {
  if (decision === "RUN") return { action: { ...base, status: "APPROVED" }, emit: [] }
  const action: AgentActionRecord = { ...base, status: "PENDING_APPROVAL" }
  return { action, emit: [{ type: "AGENT_ACTION.PENDING_APPROVAL", resourceId: action.id, data: view(action) }] }
}
