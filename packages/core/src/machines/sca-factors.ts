import { Conflict, InvalidInput, PasskeyAlreadyEnrolled } from "../domain/errors.ts"
import { referenceNotFound } from "../domain/not-found.ts"
import type { ScaFactor, ScaFactorsState, ScaPasskeyCredential } from "../domain/sca/records.ts"
import { next, refuse, type Machine } from "./transition.ts"

/**
 * A customer's enrolled SCA factors (DECISIONS #221, #223). SMS_OTP is always there (the
 * customer's verified phone); TOTP and PASSKEY are enrolled in two steps, a start that issues
 * the secret or registration challenge and a confirm that proves it, within their lifetime.
 * A customer has at most one of each: a second passkey is 409 PASSKEY_ALREADY_ENROLLED, a second
 * TOTP 409 CONFLICT; a new start replaces a pending one. Only a passkey is deletable (it alone has
 * a credentialId). A completed 2FA reset clears the factor it was for.
 */
export type ScaFactorsEvent =
  | { readonly _tag: "StartTotp"; readonly secret: string; readonly expiresAtMs: number }
  | { readonly _tag: "StartPasskey"; readonly challenge: string; readonly expiresAtMs: number }
  | { readonly _tag: "ConfirmTotp"; readonly secret: string; readonly codeMatches: boolean }
  | { readonly _tag: "ConfirmPasskey"; readonly registered: ScaPasskeyCredential | { readonly failure: string }; readonly enrolledAt: string }
  | { readonly _tag: "Delete"; readonly credentialId: string }
  | { readonly _tag: "Reset"; readonly factor: ScaFactor }

const badProof = (field: string, message: string, reason = "SCA_PROOF_INVALID") =>
  new InvalidInput({ message: "The enrollment could not be confirmed", details: { reason, errors: [{ field, message }] } })

export const passkeyAlreadyEnrolled = () =>
  new PasskeyAlreadyEnrolled({ message: "The customer already has a passkey; delete it before enrolling another", details: { reason: "PASSKEY_ALREADY_ENROLLED" } })

export const scaFactorsMachine: Machine<ScaFactorsState, ScaFactorsEvent> = (s, event, now) => {
  switch (event._tag) {
    case "StartTotp":
      if (s.totp?.enrolled === true)
        return refuse(new Conflict({ message: "The customer already has a TOTP factor", details: { reason: "TOTP_ALREADY_ENROLLED" } }))
      return next({ ...s, totp: { secret: event.secret, enrolled: false, expiresAtMs: event.expiresAtMs } })
    case "StartPasskey":
      if (s.passkey?.enrolled === true) return refuse(passkeyAlreadyEnrolled())
      return next({ ...s, passkey: { enrolled: false, challenge: event.challenge, expiresAtMs: event.expiresAtMs } })
    case "ConfirmTotp": {
      const pending = s.totp
      if (pending === undefined || pending.enrolled || pending.secret !== event.secret)
        return refuse(badProof("secret", "is not the secret of a pending TOTP enrollment", "NO_PENDING_ENROLLMENT"))
      if (pending.expiresAtMs !== undefined && now >= pending.expiresAtMs) return refuse(badProof("secret", "belongs to an enrollment that expired; start again", "SCA_CHALLENGE_EXPIRED"))
      if (!event.codeMatches) return refuse(badProof("code", "is not the authenticator's current code"))
      return next({ ...s, totp: { secret: pending.secret, enrolled: true } })
    }
    case "ConfirmPasskey": {
      const pending = s.passkey
      if (pending?.enrolled === true) return refuse(passkeyAlreadyEnrolled())
      if (pending === undefined) return refuse(badProof("credential", "answers no pending passkey enrollment", "NO_PENDING_ENROLLMENT"))
      if (now >= pending.expiresAtMs) return refuse(badProof("credential", "answers an enrollment that expired; start again", "SCA_CHALLENGE_EXPIRED"))
      if ("failure" in event.registered) return refuse(badProof("credential", event.registered.failure))
      return next({ ...s, passkey: { enrolled: true, credential: event.registered, enrolledAt: event.enrolledAt } })
    }
    case "Delete": {
      if (s.passkey?.enrolled !== true || s.passkey.credential.credentialId !== event.credentialId) return refuse(referenceNotFound("ScaFactor", event.credentialId))
      const { passkey: _gone, ...rest } = s
      return next(rest)
    }
    case "Reset": {
      if (event.factor === "SMS_OTP") return next(s)
      const { [event.factor === "TOTP" ? "totp" : "passkey"]: _gone, ...rest } = s
      return next(rest)
    }
  }
}

/** Whether a factor can be used now (SMS_OTP always; the others once enrolled). */
export const factorEnrolled = (s: ScaFactorsState, factor: ScaFactor) =>
  factor === "SMS_OTP" || (factor === "TOTP" ? s.totp?.enrolled === true : s.passkey?.enrolled === true)

/** The reference's `ScaFactorList`. */
export const factorListView = (s: ScaFactorsState) => ({
  factors: [
    { factor: "SMS_OTP" as const, name: "Verified phone" },
    ...(s.totp?.enrolled === true ? [{ factor: "TOTP" as const, name: "Authenticator app" }] : []),
    ...(s.passkey?.enrolled === true ? [{ factor: "PASSKEY" as const, credentialId: s.passkey.credential.credentialId, name: "Passkey" }] : [])
  ]
})
