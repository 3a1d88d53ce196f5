import { Either, Schema } from "effect"
import type { InvalidInput } from "../errors.ts"
import { bodyNotAnObject, decodeInput, isJsonObject } from "../field-errors.ts"
import { NonEmpty, optional } from "../common.ts"
import { normalisePublicKey } from "../../crypto/p256.ts"

/** Request bodies of the wallet-auth endpoints (reference schemas under `auth/`). */

const InternalAccountId = Schema.String.pipe(
  Schema.pattern(/^InternalAccount:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, {
    message: () => "must be an InternalAccount:<uuid> id"
  })
)

/** A P-256 public key, SEC1 hex, compressed or uncompressed (reference pattern). */
// A key of the right form that is not a point of P-256 would only fail later, inside the ECDH of a
// seal or a stamp check: refusing it here makes it a 400 on the field, never a defect.
const onCurve = { message: () => "is not a point on the P-256 curve" }

export const ClientPublicKey = Schema.String.pipe(
  Schema.pattern(/^(0[23][0-9a-fA-F]{64}|04[0-9a-fA-F]{128})$/, { message: () => "must be a P-256 public key in SEC1 hex" }),
  Schema.filter((s) => normalisePublicKey(s) !== undefined, onCurve)
)

export const UncompressedPublicKey = Schema.String.pipe(
  Schema.pattern(/^04[0-9a-fA-F]{128}$/, { message: () => "must be an uncompressed P-256 public key (04 + 128 hex)" }),
  Schema.filter((s) => normalisePublicKey(s) !== undefined, onCurve)
)

const Base64Url = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z0-9_-]+={0,2}$/, { message: () => "must be base64url" })
)

const Transport = Schema.Literal("usb", "nfc", "ble", "internal", "hybrid")

const Nickname = Schema.String.pipe(
  Schema.filter((s) => s.trim().length >= 1 && s.trim().length <= 100, { message: () => "must be 1 to 100 characters" }),
  Schema.pattern(/^[\p{L}\p{N} ._\-'()]+$/u, { message: () => "may hold letters, numbers, spaces and . _ - ' ( )" })
)

export const CredentialCreate = {
  EMAIL_OTP: Schema.Struct({ type: Schema.Literal("EMAIL_OTP"), accountId: InternalAccountId }),
  SMS_OTP: Schema.Struct({ type: Schema.Literal("SMS_OTP"), accountId: InternalAccountId }),
  OAUTH: Schema.Struct({ type: Schema.Literal("OAUTH"), accountId: InternalAccountId, oidcToken: NonEmpty(16384) }),
  PASSKEY: Schema.Struct({
    type: Schema.Literal("PASSKEY"),
    accountId: InternalAccountId,
    nickname: Nickname,
    challenge: Base64Url,
    attestation: Schema.Struct({
      credentialId: Base64Url,
      clientDataJson: Base64Url,
      attestationObject: Base64Url,
      transports: optional(Schema.Array(Transport))
    })
  })
}

export const CredentialVerify = {
  EMAIL_OTP: Schema.Struct({ type: Schema.Literal("EMAIL_OTP"), encryptedOtpBundle: NonEmpty(8192) }),
  SMS_OTP: Schema.Struct({ type: Schema.Literal("SMS_OTP"), encryptedOtpBundle: NonEmpty(8192) }),
  OAUTH: Schema.Struct({ type: Schema.Literal("OAUTH"), oidcToken: NonEmpty(16384), clientPublicKey: ClientPublicKey }),
  PASSKEY: Schema.Struct({
    type: Schema.Literal("PASSKEY"),
    assertion: Schema.Struct({
      credentialId: Base64Url,
      clientDataJson: Base64Url,
      authenticatorData: Base64Url,
      // base64url, or the legacy sandbox literal (DECISIONS #19).
      signature: NonEmpty(1024),
      userHandle: optional(Schema.String)
    })
  })
}

export const ChallengeBody = Schema.Struct({ clientPublicKey: optional(ClientPublicKey) })
export const RefreshBody = Schema.Struct({ clientPublicKey: ClientPublicKey })
export const ExportBody = Schema.Struct({ clientPublicKey: UncompressedPublicKey })
export const InternalAccountUpdate = Schema.Struct({ privateEnabled: Schema.Boolean })

const credentialTypes = ["EMAIL_OTP", "SMS_OTP", "OAUTH", "PASSKEY"] as const
const decodeType = decodeInput(Schema.Struct({ type: Schema.Literal(...credentialTypes) }))

type Decoders = { readonly [K in (typeof credentialTypes)[number]]: Schema.Schema<any, any> }

/** Picks the variant by `type`, then reports every invalid field of that variant at once. */
export const decodeByType = <D extends Decoders>(variants: D) => {
  const decoders = Object.fromEntries(Object.entries(variants).map(([k, s]) => [k, decodeInput(s)])) as {
    readonly [K in keyof D]: (u: unknown) => Either.Either<Schema.Schema.Type<D[K]>, InvalidInput>
  }
  return (input: unknown): Either.Either<{ [K in keyof D]: Schema.Schema.Type<D[K]> }[keyof D], InvalidInput> => {
    if (!isJsonObject(input)) return Either.left(bodyNotAnObject())
    const typed = decodeType(input)
    if (Either.isLeft(typed)) return Either.left(typed.left)
    return decoders[typed.right.type](input)
  }
}
