import type { DelegatedKeyStatus } from "../domain/delegated-keys/delegated-key.ts"
import { Conflict, InvalidInput } from "../domain/errors.ts"
import { type Machine, next, refuse } from "./transition.ts"

/** What the machine needs of a delegated key: its status (the operation stamps the times). */
export interface DelegatedKeyState {
  readonly status: DelegatedKeyStatus
}

/**
 * - Activate: the second signed leg of creation completed (the policy is granted). `activeKeyId`
 *   is the funding source's ACTIVE key, if it has one: at most one may be ACTIVE (DECISIONS #264).
 * - Revoke: `DELETE /auth/delegated-keys/{id}`; only an ACTIVE key can be revoked (reference 400).
 * A PENDING key never changes again once abandoned: it cannot sign and cannot be revoked.
 */
export type DelegatedKeyEvent =
  | { readonly _tag: "Activate"; readonly activeKeyId?: string }
  | { readonly _tag: "Revoke" }

/** 409 when the funding source already has an ACTIVE key (checked on every leg of creation). */
export const activeKeyExists = (activeKeyId: string) =>
  new Conflict({
    message: `The card funding source already has an ACTIVE delegated key (${activeKeyId}); revoke it before creating another`,
    details: { reason: "DELEGATED_KEY_ALREADY_ACTIVE", delegatedKeyId: activeKeyId }
  })

const notActive = (status: DelegatedKeyStatus) =>
  new InvalidInput({
    message: status === "REVOKED" ? "The delegated key was already revoked" : `A ${status} delegated key cannot be revoked; only an ACTIVE one can`,
    details: { reason: status === "REVOKED" ? "DELEGATED_KEY_ALREADY_REVOKED" : "DELEGATED_KEY_NOT_ACTIVE", status }
  })

export const delegatedKeyMachine: Machine<DelegatedKeyState, DelegatedKeyEvent> = (state, event) => {
  switch (event._tag) {
    case "Activate":
      if (state.status !== "PENDING")
        return refuse(new Conflict({ message: `A ${state.status} delegated key cannot be activated`, details: { reason: "INVALID_DELEGATED_KEY_STATE", status: state.status } }))
      return event.activeKeyId === undefined ? next({ ...state, status: "ACTIVE" }) : refuse(activeKeyExists(event.activeKeyId))
    case "Revoke":
      return state.status === "ACTIVE" ? next({ ...state, status: "REVOKED" }) : refuse(notActive(state.status))
  }
}

/** Whether a key in this status may sign for its wallet (only ACTIVE: PENDING holds no policy, REVOKED no identity). */
export const maySign = (status: DelegatedKeyStatus): boolean => status === "ACTIVE"
