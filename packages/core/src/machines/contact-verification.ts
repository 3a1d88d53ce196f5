import type { ContactVerificationStatus, PendingCode } from "../domain/customers/contact-verification.ts"
import { Conflict, InvalidInput } from "../domain/errors.ts"
import { lifetimes, OTP_MAX_ATTEMPTS } from "../limits.ts"
import { type Machine, next, refuse, thenFail } from "./transition.ts"

/**
 * One contact channel (email or phone) of one customer. `undefined`: the customer's provider does
 * not require the channel, and every event is 409. Otherwise PENDING until a code that was sent
 * (and is still live) is confirmed with the right value, then VERIFIED for good, unless the
 * address changes (Reset). A send replaces any earlier code, so only the latest one counts; a
 * wrong code counts against it and the OTP_MAX_ATTEMPTS-th withdraws it (a resend is needed).
 */
export interface ChannelState {
  readonly status: ContactVerificationStatus
  readonly pending?: PendingCode
}

export type ContactEvent =
  /** `hasAddress`: the customer has an email (phone number) to send the code to. */
  | { readonly _tag: "Send"; readonly hasAddress: boolean }
  /** `codeMatches`: the constant-time comparison with the sandbox code, given as data. */
  | { readonly _tag: "Confirm"; readonly hasAddress: boolean; readonly codeMatches: boolean }
  /** The channel's address changed: nobody has confirmed the new one. */
  | { readonly _tag: "Reset" }

const conflict = (reason: string, message: string) => new Conflict({ message, details: { reason } })

const codeRefused = (reason: string, message: string, attemptsLeft?: number) =>
  new InvalidInput({
    message,
    details: { reason, ...(attemptsLeft === undefined ? {} : { attemptsLeft }), errors: [{ field: "code", message }] }
  })

/** The 409s shared by Send and Confirm: nothing to verify, already verified, or nowhere to send. */
const unusable = (state: ChannelState | undefined, hasAddress: boolean): Conflict | undefined =>
  state === undefined
    ? conflict("CONTACT_VERIFICATION_NOT_REQUIRED", "The customer's provider does not require verifying this contact")
    : state.status === "VERIFIED"
      ? conflict("ALREADY_VERIFIED", "This contact is already verified")
      : !hasAddress
        ? conflict("CONTACT_MISSING", "The customer has no such contact to verify; add it with PATCH /customers/{customerId} first")
        : undefined

export const contactChannel: Machine<ChannelState | undefined, ContactEvent> = (state, event, now) => {
  switch (event._tag) {
    case "Reset":
      return next(state === undefined ? undefined : { status: "PENDING" })
    case "Send": {
      const refusal = unusable(state, event.hasAddress)
      if (refusal !== undefined) return refuse(refusal)
      return next<ChannelState | undefined>({ status: "PENDING", pending: { expiresAtMs: now + lifetimes.otpMs, failedAttempts: 0 } })
    }
    case "Confirm": {
      const refusal = unusable(state, event.hasAddress)
      if (refusal !== undefined) return refuse(refusal)
      const pending = state!.pending
      if (pending === undefined) return refuse(codeRefused("NO_PENDING_CODE", "No code was sent for this contact; send one first"))
      if (now >= pending.expiresAtMs)
        return thenFail<ChannelState | undefined>({ status: "PENDING" }, codeRefused("CODE_EXPIRED", "The code has expired; send a new one"))
      if (event.codeMatches) return next<ChannelState | undefined>({ status: "VERIFIED" })
      const failedAttempts = pending.failedAttempts + 1
      const attemptsLeft = OTP_MAX_ATTEMPTS - failedAttempts
      return attemptsLeft <= 0
        ? thenFail<ChannelState | undefined>(
            { status: "PENDING" },
            codeRefused("CODE_ATTEMPTS_EXHAUSTED", "Too many wrong codes; send a new one", 0)
          )
        : thenFail<ChannelState | undefined>(
            { status: "PENDING", pending: { ...pending, failedAttempts } },
            codeRefused("INVALID_CODE", "The code is not the one sent", attemptsLeft)
          )
    }
  }
}
