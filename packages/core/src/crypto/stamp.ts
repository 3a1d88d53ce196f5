import { base64UrlToBytes, bytesToBase64Url, bytesToHex, hexToBytes, isRecord, parseJson, utf8, utf8Decode } from "./encoding.ts"
import { normalisePublicKey, signP256, verifyP256 } from "./p256.ts"

/**
 * The `Service-Wallet-Signature` stamp (notes-wallet-auth §1): base64url (padding optional) of
 * the compact JSON `{publicKey, scheme, signature}`; `publicKey` SEC1 hex, `signature` DER hex
 * of ECDSA P-256 / SHA-256 over the exact UTF-8 bytes of `payloadToSign`. High-S is valid.
 */
export const STAMP_SCHEME = "SIGNATURE_SCHEME_TK_API_P256"


export interface Stamp {
  /** Compressed SEC1 hex, whatever form the client sent: keys compare as points. */
  readonly publicKey: string
  readonly signature: Uint8Array
}

export type StampParse = { readonly ok: true; readonly stamp: Stamp } | { readonly ok: false; readonly reason: string }

const fail = (reason: string): StampParse => ({ ok: false, reason })

/** Parses a header value; every failure names what was wrong, never the value itself. */
export const parseStamp = (header: string): StampParse => {
  const bytes = base64UrlToBytes(header.trim())
  if (bytes === undefined || bytes.length === 0) return fail("not base64url")
  const text = utf8Decode(bytes)
  const json = text === undefined ? undefined : parseJson(text)
  if (!isRecord(json)) return fail("not a JSON object")
  const keys = Object.keys(json).sort().join(",")
  if (keys !== "publicKey,scheme,signature") return fail("must have exactly publicKey, scheme and signature")
  const { publicKey, scheme, signature } = json
  if (typeof publicKey !== "string" || typeof scheme !== "string" || typeof signature !== "string")
    return fail("publicKey, scheme and signature must be strings")
  if (scheme !== STAMP_SCHEME) return fail(`scheme must be ${STAMP_SCHEME}`)
  const key = normalisePublicKey(publicKey)
  if (key === undefined) return fail("publicKey is not a P-256 point in SEC1 hex")
  const sig = hexToBytes(signature)
  // A DER ECDSA signature is a SEQUENCE of two INTEGERs: 8 to 72 bytes.
  if (sig === undefined || sig.length < 8 || sig.length > 72 || sig[0] !== 0x30) return fail("signature is not DER hex")
  return { ok: true, stamp: { publicKey: key.compressed, signature: sig } }
}

/** Whether the stamp signs exactly these payload bytes. */
export const stampSigns = (stamp: Stamp, payloadToSign: string): boolean =>
  verifyP256(stamp.publicKey, utf8(payloadToSign), stamp.signature, "der")

/** A stamp by a key the server holds (a delegated key, DECISIONS #265): the same format a client sends. */
export const makeStamp = (privateKeyHex: string, publicKeyHex: string, payloadToSign: string): string =>
  bytesToBase64Url(
    utf8(JSON.stringify({ publicKey: publicKeyHex, scheme: STAMP_SCHEME, signature: bytesToHex(signP256(privateKeyHex, utf8(payloadToSign))) }))
  )
