import { createPublicKey, verify } from "node:crypto"
import { isRecord, parseJson } from "../crypto/encoding.ts"

/**
 * A receiver's check of a Tessera (or reference) webhook: ECDSA P-256 / SHA-256 over the raw
 * body, header `X-Service-Signature` (or `X-Grid-Signature`) holding `{"v":"1","s":"<base64 DER>"}`
 * or a bare base64 signature. `publicKey` is the PEM or uncompressed hex from
 * `GET /sandbox/webhooks/public-key`.
 */
export const verifyWebhookSignature = (publicKey: string, rawBody: string | Uint8Array, header: string | undefined): boolean => {
  if (header === undefined) return false
  const parsed = parseJson(header)
  const b64 = isRecord(parsed) ? (parsed["v"] === "1" && typeof parsed["s"] === "string" ? parsed["s"] : undefined) : header
  if (b64 === undefined || !/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) return false
  try {
    const key = publicKey.includes("BEGIN PUBLIC KEY")
      ? createPublicKey(publicKey)
      : createPublicKey({ key: Buffer.from("3059301306072a8648ce3d020106082a8648ce3d030107034200" + publicKey, "hex"), format: "der", type: "spki" })
    return verify("sha256", typeof rawBody === "string" ? Buffer.from(rawBody, "utf8") : rawBody, { key, dsaEncoding: "der" }, Buffer.from(b64, "base64"))
  } catch {
    return false
  }
}
