import { InvitationClaim, InvitationCreate } from "../domain/invitations/invitation.ts"
import { cancelInvitation, claimInvitation, createInvitation, getInvitation } from "../operations/invitations/invitations.ts"
import { endpoint } from "./define.ts"

/** UMA invitations: created for a customer, claimed by the invitee's UMA address (DECISIONS #250–#254). */
export const invitationEndpoints = [
  endpoint({
    group: "invitations",
    name: "create",
    method: "POST",
    path: "/invitations",
    operationId: "createInvitation",
    status: 201,
    summary: "Create an invitation from one of the platform's customers, by its UMA address",
    body: InvitationCreate,
    run: (r) => createInvitation(r.platform, r.body)
  }),
  endpoint({
    group: "invitations",
    name: "get",
    method: "GET",
    path: "/invitations/{invitationCode}",
    operationId: "getInvitation",
    status: 200,
    summary: "Read an invitation by its code, with its status now",
    run: (r) => getInvitation(r.platform, r.params.invitationCode)
  }),
  endpoint({
    group: "invitations",
    name: "claim",
    method: "POST",
    path: "/invitations/{invitationCode}/claim",
    operationId: "claimInvitation",
    status: 200,
    summary: "Claim a pending invitation for the invitee's UMA address; the platform is sent INVITATION.CLAIMED",
    body: InvitationClaim,
    run: (r) => claimInvitation(r.platform, r.params.invitationCode, r.body)
  }),
  endpoint({
    group: "invitations",
    name: "cancel",
    method: "POST",
    path: "/invitations/{invitationCode}/cancel",
    operationId: "cancelInvitation",
    status: 200,
    summary: "Cancel a pending invitation: it can no longer be claimed",
    run: (r) => cancelInvitation(r.platform, r.params.invitationCode)
  })
]
