import { Schema } from "effect"
import { bytesToBase64Url, utf8 } from "../../crypto/encoding.ts"
import { constantTimeEqual } from "../../crypto/secrets.ts"
import { type RegisteredPasskey, verifyAssertion, verifyRegistration } from "../../crypto/webauthn.ts"
import { optional } from "../../domain/common.ts"
import type { FieldError } from "../../domain/field-errors.ts"
import type { ScaChallenge, ScaProfileRecord } from "../../domain/sca/records.ts"
import type { ScaProof } from "../../machines/sca-challenge.ts"
import { SCA_CHALLENGE_MS } from "../../limits.ts"
import { SANDBOX_SCA_CODE } from "../../sandbox/literals.ts"
import { SCA_PASSKEY_ORIGINS, SCA_PASSKEY_RP_ID } from "../../sandbox/sca.ts"

/** The proof fields every SCA confirmation carries (reference `ScaAuthorization`). */
export const proofFields = {
  code: optional(Schema.NullOr(Schema.String)),
  passkeyAssertion: optional(Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.Unknown }))),
  origin: optional(Schema.NullOr(Schema.String)),
  endUserIpAddress: optional(Schema.NullOr(Schema.String))
}
export const ScaAuthorization = Schema.Struct(proofFields)
export type ProofInput = Schema.Schema.Type<typeof ScaAuthorization>

/** A proof must be a code or a passkey assertion with its origin (400 naming what is missing). */
export const proofProblems = (p: ProofInput): ReadonlyArray<FieldError> => {
  const hasCode = typeof p.code === "string"
  const hasAssertion = p.passkeyAssertion !== undefined && p.passkeyAssertion !== null
  if (hasCode && hasAssertion) return [{ field: "passkeyAssertion", message: "give either code or passkeyAssertion, not both" }]
  if (!hasCode && !hasAssertion) return [{ field: "code", message: "is required (or passkeyAssertion with origin); in the sandbox the code is 123456" }]
  if (hasAssertion && typeof p.origin !== "string") return [{ field: "origin", message: "is required alongside passkeyAssertion" }]
  return []
}

const codeMatches = (code: string) => constantTimeEqual(utf8(code), utf8(SANDBOX_SCA_CODE))

const str = (o: Record<string, unknown> | undefined, ...names: ReadonlyArray<string>) => {
  for (const n of names) if (typeof o?.[n] === "string") return o[n] as string
  return undefined
}

/** A WebAuthn JSON credential (`{id, response: {...}}`) or the flat form the testing kit produces. */
const webauthnParts = (cred: Record<string, unknown>) => {
  const response = typeof cred["response"] === "object" && cred["response"] !== null ? (cred["response"] as Record<string, unknown>) : cred
  return {
    credentialId: str(cred, "credentialId", "id", "rawId") ?? "",
    clientDataJson: str(response, "clientDataJSON", "clientDataJson") ?? "",
    attestationObject: str(response, "attestationObject") ?? "",
    authenticatorData: str(response, "authenticatorData") ?? "",
    signature: str(response, "signature") ?? ""
  }
}

/**
 * Judges a proof against a challenge: a code against the sandbox code, a passkey assertion with
 * the real WebAuthn checks against the customer's registered passkey (DECISIONS #223). Answers
 * the machine's proof and the passkey's new signature counter when it verified.
 */
export const judgeProof = (profile: ScaProfileRecord, challenge: ScaChallenge, p: ProofInput): { readonly proof: ScaProof; readonly signCount?: number } => {
  if (typeof p.code === "string") return { proof: { kind: "code", matches: codeMatches(p.code) } }
  const assertion = p.passkeyAssertion ?? {}
  if (profile.passkey?.enrolled !== true || challenge.passkeyChallenge === undefined) return { proof: { kind: "passkey", valid: false, reason: "no passkey is enrolled for this challenge" } }
  if (!SCA_PASSKEY_ORIGINS.includes(p.origin ?? "")) return { proof: { kind: "passkey", valid: false, reason: `origin must be one of ${SCA_PASSKEY_ORIGINS.join(", ")}` } }
  const parts = webauthnParts(assertion)
  const checked = verifyAssertion({ passkey: profile.passkey.credential, challengeBytes: utf8(challenge.passkeyChallenge), ...parts })
  return checked.ok ? { proof: { kind: "passkey", valid: true }, signCount: checked.value.signCount } : { proof: { kind: "passkey", valid: false, reason: checked.reason } }
}

/** The registration check of a passkey enrollment's confirm. */
export const checkRegistration = (challenge: string, origin: string, credential: Record<string, unknown>): RegisteredPasskey | { readonly failure: string } => {
  if (!SCA_PASSKEY_ORIGINS.includes(origin)) return { failure: `origin must be one of ${SCA_PASSKEY_ORIGINS.join(", ")}` }
  const checked = verifyRegistration({ challenge, ...webauthnParts(credential) })
  if (!checked.ok) return { failure: checked.reason }
  if (checked.value.origin !== origin) return { failure: "the credential was produced against another origin" }
  return checked.value
}

/** WebAuthn creation options for a passkey enrollment (`challenge` is base64url already). */
export const registrationOptions = (challenge: string, customerId: string) => ({
  challenge,
  rp: { id: SCA_PASSKEY_RP_ID, name: "Tessera sandbox" },
  user: { id: bytesToBase64Url(utf8(customerId)), name: customerId, displayName: customerId },
  pubKeyCredParams: [{ type: "public-key", alg: -7 }],
  attestation: "none",
  timeout: SCA_CHALLENGE_MS
})

/** WebAuthn request options for a PASSKEY challenge: the assertion signs the UTF-8 of its hex string. */
export const assertionOptions = (profile: ScaProfileRecord, challenge: ScaChallenge) => ({
  challenge: bytesToBase64Url(utf8(challenge.passkeyChallenge ?? "")),
  rpId: SCA_PASSKEY_RP_ID,
  allowCredentials: profile.passkey?.enrolled === true ? [{ type: "public-key", id: profile.passkey.credential.credentialId }] : [],
  userVerification: "preferred",
  timeout: SCA_CHALLENGE_MS
})

/** After a verified assertion the passkey keeps its new signature counter (clone detection). */
export const withSignCount = (profile: ScaProfileRecord, signCount: number | undefined): ScaProfileRecord =>
  signCount === undefined || profile.passkey?.enrolled !== true ? profile : { ...profile, passkey: { ...profile.passkey, credential: { ...profile.passkey.credential, signCount } } }
