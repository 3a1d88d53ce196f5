import { Forbidden } from "../domain/errors.ts"
import type { Permission } from "../domain/platform/api-token.ts"
import type { Principal } from "../operations/platform/platforms.ts"
import type { AnyEndpoint } from "./define.ts"

/**
 * Which permission of an API token each endpoint needs (DECISIONS #245). The reference: VIEW
 * "can view all data", TRANSACT "can send payments" (creating or executing a quote without it is
 * 403 FORBIDDEN), MANAGE "can manage platform config, api tokens and customers". So: every read
 * needs VIEW; what moves money or decides a payment needs TRANSACT; every other write needs
 * MANAGE. A permission implies no other. The platform's own client id and secret hold them all.
 */
const transact = new Set([
  "createQuote",
  "executeQuote",
  // Authorizing a held quote releases its payment (DECISIONS #230).
  "authorizeQuote",
  "resendQuoteScaCode",
  "createTransferIn",
  "createTransferOut",
  "approvePendingPayment",
  "rejectPendingPayment",
  "cancelTransaction",
  "confirmReceiptDelivery",
  "sandboxSend",
  "sandboxReceive",
  "sandboxFundInternalAccount",
  // A mint or burn moves the platform's money through the stablecoin's reserve.
  "createStablecoinMint",
  "createStablecoinBurn",
  // Approving an agent's action runs its transfer or quote execution (DECISIONS #380).
  "approveAgentAction",
  "rejectAgentAction",
  // An agent in AUTO mode moves money with no further credential: whoever creates one, reconnects
  // it (a new device code) or sets its policy decides payments, so a MANAGE-only token may not
  // (DECISIONS #388, the escalation #246 forbids).
  "createAgent",
  "regenerateAgentDeviceCode",
  "updateAgentPolicy"
])

/** Writes nothing: computed answers a reader may ask for with POST. */
const view = new Set(["estimateCryptoWithdrawalFee"])

/** The ten sandbox card simulators move a card's money as the sandbox's send and fund do. */
const movesMoney = (operationId: string): boolean => transact.has(operationId) || operationId.startsWith("sandboxSimulateCard")

export const requiredPermission = (e: Pick<AnyEndpoint, "method" | "operationId">): Permission =>
  e.method === "GET" || view.has(e.operationId) ? "VIEW" : movesMoney(e.operationId) ? "TRANSACT" : "MANAGE"

/** 403 FORBIDDEN when the credentials lack the endpoint's permission; undefined when they hold it. */
export const forbiddenFor = (principal: Principal, e: Pick<AnyEndpoint, "method" | "operationId">): Forbidden | undefined => {
  if (principal.permissions === "ALL") return undefined
  const needed = requiredPermission(e)
  if (principal.permissions.includes(needed)) return undefined
  return new Forbidden({
    message: `This API token lacks the ${needed} permission this operation needs`,
    details: { requiredPermission: needed, permissions: principal.permissions }
  })
}

/**
 * A token creates tokens only with permissions it holds itself (DECISIONS #246): otherwise a
 * MANAGE-only token could mint a TRANSACT one and move money. 403 FORBIDDEN naming the
 * permissions it lacks; the platform's own credentials may grant any.
 */
export const escalationFor = (principal: Principal, e: Pick<AnyEndpoint, "operationId">, body: unknown): Forbidden | undefined => {
  if (principal.permissions === "ALL" || e.operationId !== "createToken") return undefined
  const requested = typeof body === "object" && body !== null && Array.isArray((body as { permissions?: unknown }).permissions) ? (body as { permissions: ReadonlyArray<unknown> }).permissions : []
  const held = principal.permissions
  const lacking = requested.filter((p): p is Permission => typeof p === "string" && !held.includes(p as Permission))
  if (lacking.length === 0) return undefined
  return new Forbidden({
    message: `An API token can grant only permissions it holds: it lacks ${lacking.join(", ")}`,
    details: { reason: "PERMISSION_ESCALATION", lacking, permissions: held }
  })
}
