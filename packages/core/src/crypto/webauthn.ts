import { createHash } from "node:crypto"
import { type Cbor, decodeCbor, decodeCborItems } from "./cbor.ts"
import { base64UrlToBytes, bytesToBase64Url, bytesToHex, concatBytes, isRecord, parseJson, utf8, utf8Decode } from "./encoding.ts"
import { verifyP256 } from "./p256.ts"

/**
 * WebAuthn for passkey credentials: registration with attestation `none` (the key is taken on
 * trust, as the reference's sandbox does) and COSE ES256 keys; assertions checked as the spec's
 * sandbox says: credential, challenge, origin and RP binding, user presence, signature, counter.
 */

const sha256 = (b: Uint8Array) => new Uint8Array(createHash("sha256").update(b).digest())

export type Check<A> = { readonly ok: true; readonly value: A } | { readonly ok: false; readonly reason: string }
const fail = <A>(reason: string): Check<A> => ({ ok: false, reason })

interface AuthData {
  readonly rpIdHash: Uint8Array
  readonly flags: number
  readonly signCount: number
  readonly credentialId?: Uint8Array
  readonly cose?: Map<Cbor, Cbor>
}

const parseAuthData = (b: Uint8Array, expectCredential: boolean): AuthData | undefined => {
  if (b.length < 37) return undefined
  const flags = b[32]!
  const signCount = ((b[33]! << 24) >>> 0) + (b[34]! << 16) + (b[35]! << 8) + b[36]!
  const base = { rpIdHash: b.subarray(0, 32), flags, signCount }
  if (!expectCredential) return base
  if ((flags & 0x40) === 0 || b.length < 55) return undefined // AT: attested credential data
  const idLen = (b[53]! << 8) + b[54]!
  if (b.length < 55 + idLen) return undefined
  // The COSE key fills the rest, followed by an extensions map exactly when ED is set.
  const hasExtensions = (flags & 0x80) !== 0
  const items = decodeCborItems(b, 55 + idLen, hasExtensions ? 2 : 1)
  const [cose, extensions] = items ?? []
  if (items?.length !== (hasExtensions ? 2 : 1) || !(cose instanceof Map) || (hasExtensions && !(extensions instanceof Map))) return undefined
  return { ...base, credentialId: b.subarray(55, 55 + idLen), cose }
}

/** COSE EC2 / ES256 / P-256 key → uncompressed SEC1 hex. */
const coseToP256 = (cose: Map<Cbor, Cbor>): string | undefined => {
  const x = cose.get(-2)
  const y = cose.get(-3)
  if (cose.get(1) !== 2 || cose.get(3) !== -7 || cose.get(-1) !== 1) return undefined
  if (!(x instanceof Uint8Array) || !(y instanceof Uint8Array) || x.length !== 32 || y.length !== 32) return undefined
  return "04" + bytesToHex(x) + bytesToHex(y)
}

const clientData = (b64: string) => {
  const bytes = base64UrlToBytes(b64)
  const text = bytes === undefined ? undefined : utf8Decode(bytes)
  const json = text === undefined ? undefined : parseJson(text)
  return bytes !== undefined && isRecord(json) ? { bytes, json } : undefined
}

/** Whether `rpIdHash` is SHA-256 of the origin's host or of a registrable parent of it. */
const rpIdMatchesOrigin = (rpIdHash: Uint8Array, origin: string): boolean => {
  let host: string
  try {
    host = new URL(origin).hostname
  } catch {
    return false
  }
  const labels = host.split(".")
  for (let i = 0; i < Math.max(1, labels.length - 1); i++)
    if (Buffer.from(sha256(utf8(labels.slice(i).join(".")))).equals(Buffer.from(rpIdHash))) return true
  return false
}

export interface RegisteredPasskey {
  readonly credentialId: string
  readonly publicKey: string
  readonly rpIdHash: string
  readonly origin: string
  readonly signCount: number
}

/** Checks a registration (`navigator.credentials.create`) against the platform-issued challenge. */
export const verifyRegistration = (args: {
  readonly challenge: string
  readonly credentialId: string
  readonly clientDataJson: string
  readonly attestationObject: string
}): Check<RegisteredPasskey> => {
  const cd = clientData(args.clientDataJson)
  if (cd === undefined) return fail("clientDataJson is not base64url JSON")
  if (cd.json["type"] !== "webauthn.create") return fail("clientDataJson.type must be webauthn.create")
  if (cd.json["challenge"] !== args.challenge.replace(/=+$/, "")) return fail("clientDataJson.challenge does not match challenge")
  const origin = cd.json["origin"]
  if (typeof origin !== "string") return fail("clientDataJson.origin is missing")
  const att = base64UrlToBytes(args.attestationObject)
  const decoded = att === undefined ? undefined : decodeCbor(att)
  if (decoded === undefined || !(decoded.value instanceof Map)) return fail("attestationObject is not CBOR")
  const fmt = decoded.value.get("fmt")
  const authBytes = decoded.value.get("authData")
  if (fmt !== "none") return fail(`attestation format ${String(fmt)} is not supported (use none)`)
  if (!(authBytes instanceof Uint8Array)) return fail("attestationObject.authData is missing")
  const auth = parseAuthData(authBytes, true)
  if (auth === undefined) return fail("authenticatorData carries no attested credential")
  if ((auth.flags & 0x01) === 0) return fail("user presence flag is not set")
  if (!rpIdMatchesOrigin(auth.rpIdHash, origin)) return fail("rpIdHash does not match the origin")
  if (bytesToBase64Url(auth.credentialId!) !== args.credentialId.replace(/=+$/, "")) return fail("credentialId does not match the attested credential")
  const publicKey = coseToP256(auth.cose!)
  if (publicKey === undefined) return fail("credential key must be COSE ES256 on P-256")
  return {
    ok: true,
    value: { credentialId: args.credentialId.replace(/=+$/, ""), publicKey, rpIdHash: bytesToHex(auth.rpIdHash), origin, signCount: auth.signCount }
  }
}

/** Checks an assertion (`navigator.credentials.get`) whose challenge is the UTF-8 of `challenge`. */
export const verifyAssertion = (args: {
  readonly passkey: RegisteredPasskey
  readonly challengeBytes: Uint8Array
  readonly credentialId: string
  readonly clientDataJson: string
  readonly authenticatorData: string
  readonly signature: string
}): Check<{ readonly signCount: number }> => {
  if (args.credentialId.replace(/=+$/, "") !== args.passkey.credentialId) return fail("assertion credentialId is not this credential")
  const cd = clientData(args.clientDataJson)
  if (cd === undefined) return fail("clientDataJson is not base64url JSON")
  if (cd.json["type"] !== "webauthn.get") return fail("clientDataJson.type must be webauthn.get")
  if (cd.json["challenge"] !== bytesToBase64Url(args.challengeBytes)) return fail("challenge does not match the pending challenge")
  if (cd.json["origin"] !== args.passkey.origin) return fail("origin does not match the registered origin")
  const authBytes = base64UrlToBytes(args.authenticatorData)
  const auth = authBytes === undefined ? undefined : parseAuthData(authBytes, false)
  if (auth === undefined || authBytes === undefined) return fail("authenticatorData is malformed")
  if (bytesToHex(auth.rpIdHash) !== args.passkey.rpIdHash) return fail("rpIdHash does not match the registration")
  if ((auth.flags & 0x01) === 0) return fail("user presence flag is not set")
  const sig = base64UrlToBytes(args.signature)
  if (sig === undefined) return fail("signature is not base64url")
  if (!verifyP256(args.passkey.publicKey, concatBytes(authBytes, sha256(cd.bytes)), sig)) return fail("assertion signature is invalid")
  // A counter must grow, unless the authenticator keeps none (both zero: synced passkeys).
  if ((auth.signCount !== 0 || args.passkey.signCount !== 0) && auth.signCount <= args.passkey.signCount)
    return fail("signature counter did not increase (possible cloned authenticator)")
  return { ok: true, value: { signCount: auth.signCount } }
}
