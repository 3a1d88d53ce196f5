import { createHash, randomBytes } from "node:crypto"
import {
  bytesToBase64Url,
  bytesToHex,
  hexToBytes,
  hpkeOpen,
  hpkeSeal,
  isRecord,
  keyPairFrom,
  openBase58Bundle,
  parseJson,
  signP256,
  STAMP_SCHEME,
  TURNKEY_INFO,
  turnkeyAad,
  utf8,
  verifyP256
} from "../crypto/index.ts"

/**
 * The wallet side of the protocol, as a client app or SDK would do it: key pairs, stamps,
 * OTP bundle sealing, session-key and export decryption. Real cryptography throughout.
 */
export interface KeyPair {
  /** 32-byte private scalar, hex. */
  readonly privateKey: string
  /** Compressed SEC1 hex (66 chars): the client-held session key form. */
  readonly publicKey: string
  /** Uncompressed SEC1 hex (130 chars): the TEK and legacy-flow form. */
  readonly publicKeyUncompressed: string
}

/** A fresh P-256 key pair; pass 32 bytes for a reproducible one. */
export const newKeyPair = (seed?: Uint8Array): KeyPair => {
  for (let bytes = seed ?? randomBytes(32); ; bytes = createHash("sha256").update(bytes).digest()) {
    const k = keyPairFrom(bytes)
    if (k !== undefined) return k
  }
}

/**
 * The `Service-Wallet-Signature` value: a stamp over the exact `payloadToSign`, by a key pair
 * (or a bare private key, whose public key is then derived).
 */
export const stamp = (key: KeyPair | string, payloadToSign: string): string => {
  const privateKey = typeof key === "string" ? key : key.privateKey
  const publicKey = typeof key === "string" ? keyPairFrom(hexToBytes(key)!)!.publicKey : key.publicKey
  const signature = bytesToHex(signP256(privateKey, utf8(payloadToSign)))
  return bytesToBase64Url(utf8(JSON.stringify({ publicKey, scheme: STAMP_SCHEME, signature })))
}

/** The target key inside an `otpEncryptionTargetBundle`, and whether the server's signature over it holds. */
export const readTargetBundle = (bundle: string): { readonly targetPublic: string; readonly signatureValid: boolean } => {
  const outer = parseJson(bundle)
  if (!isRecord(outer) || typeof outer["data"] !== "string") throw new Error("not an otpEncryptionTargetBundle")
  const data = hexToBytes(outer["data"])!
  const inner = parseJson(Buffer.from(data).toString("utf8"))
  if (!isRecord(inner) || typeof inner["targetPublic"] !== "string") throw new Error("bundle data carries no targetPublic")
  const signatureValid =
    typeof outer["enclaveQuorumPublic"] === "string" &&
    typeof outer["dataSignature"] === "string" &&
    verifyP256(outer["enclaveQuorumPublic"], data, hexToBytes(outer["dataSignature"]) ?? new Uint8Array())
  return { targetPublic: inner["targetPublic"], signatureValid }
}

/**
 * `encryptedOtpBundle`: `{otp_code, public_key}` HPKE-sealed to the bundle's target key, as the
 * JSON text `{encappedPublic, ciphertext}`. The TEK's private key then signs the verify retry.
 */
export const sealOtp = (otpEncryptionTargetBundle: string, otpCode: string, tek: KeyPair): string => {
  const { targetPublic } = readTargetBundle(otpEncryptionTargetBundle)
  const { enc, ciphertext } = hpkeSeal({
    recipientPublicKey: hexToBytes(targetPublic)!,
    plaintext: utf8(JSON.stringify({ otp_code: otpCode, public_key: tek.publicKeyUncompressed })),
    info: TURNKEY_INFO,
    aad: turnkeyAad,
    ephemeralSecret: hexToBytes(newKeyPair().privateKey)!
  })
  return JSON.stringify({ encappedPublic: bytesToHex(enc), ciphertext: bytesToHex(ciphertext) })
}

/** The legacy flow's session private key (hex), from `encryptedSessionSigningKey`. */
export const decryptSessionKey = (encryptedSessionSigningKey: string, clientPrivateKey: string): string => {
  const key = openBase58Bundle(encryptedSessionSigningKey, hexToBytes(clientPrivateKey)!)
  if (key === undefined) throw new Error("cannot open encryptedSessionSigningKey with this key")
  return bytesToHex(key)
}

/**
 * The wallet's BIP-39 mnemonic (24 English words, single spaces) from an export's
 * `encryptedWalletCredentials`; `mnemonicSigner` derives its keys.
 */
export const decryptExport = (encryptedWalletCredentials: string, clientPrivateKey: string): string => {
  const outer = parseJson(encryptedWalletCredentials)
  if (!isRecord(outer) || typeof outer["data"] !== "string") throw new Error("not an export bundle")
  const inner = parseJson(Buffer.from(hexToBytes(outer["data"])!).toString("utf8"))
  if (!isRecord(inner) || typeof inner["encappedPublic"] !== "string" || typeof inner["ciphertext"] !== "string")
    throw new Error("export data carries no sealed credentials")
  const pt = hpkeOpen({
    recipientPrivateKey: hexToBytes(clientPrivateKey)!,
    enc: hexToBytes(inner["encappedPublic"])!,
    ciphertext: hexToBytes(inner["ciphertext"])!,
    info: TURNKEY_INFO,
    aad: turnkeyAad
  })
  if (pt === undefined) throw new Error("cannot open the export with this key")
  return Buffer.from(pt).toString("utf8")
}

export interface OidcClaimsInput {
  readonly iss?: string
  readonly aud?: string | ReadonlyArray<string>
  readonly sub?: string
  readonly email?: string
  /** Issue time in ms (default now); the sandbox accepts tokens at most 60 s old. */
  readonly issuedAtMs?: number
  readonly expiresInSeconds?: number
  /** For verify: the exact `clientPublicKey` string whose SHA-256 becomes the nonce. */
  readonly clientPublicKey?: string
  readonly extra?: Record<string, unknown>
}

/** A sandbox OIDC token: JWT-shaped with the claims the sandbox checks (its signature is not checked). */
export const mintOidcToken = (claims: OidcClaimsInput = {}): string => {
  const iat = Math.floor((claims.issuedAtMs ?? Date.now()) / 1000)
  const payload = {
    iss: claims.iss ?? "https://accounts.google.com",
    aud: claims.aud ?? "tessera-sandbox-oauth-client-id",
    sub: claims.sub ?? "sandbox-user-123",
    email: claims.email ?? "sandbox.user@example.com",
    email_verified: true,
    iat,
    exp: iat + (claims.expiresInSeconds ?? 300),
    ...(claims.clientPublicKey === undefined ? {} : { nonce: createHash("sha256").update(claims.clientPublicKey).digest("hex") }),
    ...claims.extra
  }
  const b64 = (o: unknown) => bytesToBase64Url(utf8(JSON.stringify(o)))
  return `${b64({ alg: "RS256", typ: "JWT" })}.${b64(payload)}.sandbox-signature`
}
