/**
 * An answer whose status is decided by the operation (202 challenge, 201 created, 204, 200
 * PROCESSING), rather than by the route. Routes with one success status return plain values.
 */
export interface Reply {
  readonly _tag: "Reply"
  readonly status: number
  readonly body: unknown
}

export const reply = (status: number, body: unknown): Reply => ({ _tag: "Reply", status, body })

export const isReply = (u: unknown): u is Reply =>
  typeof u === "object" && u !== null && (u as { _tag?: unknown })._tag === "Reply" && typeof (u as { status?: unknown }).status === "number"

export const NO_CONTENT: Reply = reply(204, undefined)
