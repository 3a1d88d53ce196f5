import { base58checkDecode, base58checkEncode } from "./base58check.ts"
import { bytesToHex, concatBytes, hexToBytes, isRecord, parseJson, utf8, utf8Decode } from "./encoding.ts"
import { hpkeOpen, hpkeSeal, TURNKEY_INFO, turnkeyAad } from "./hpke.ts"
import { signP256 } from "./p256.ts"

/**
 * The wire formats around HPKE (notes-wallet-auth §3, §6): the OTP encryption target bundle the
 * server hands out, the client's `encryptedOtpBundle`, the legacy base58check session-key bundle
 * and the wallet export bundle. All use the reference's HPKE profile.
 */

/**
 * `otpEncryptionTargetBundle`: JSON text `{version, data, dataSignature, enclaveQuorumPublic}`;
 * `data` is hex of the JSON `{"targetPublic": <uncompressed hex>}`, signed by the server's
 * quorum key so a careful client can check where the target key came from.
 */
export const otpTargetBundle = (targetPublicUncompressed: string, quorum: { privateKey: string; publicKeyUncompressed: string }) => {
  const data = utf8(JSON.stringify({ targetPublic: targetPublicUncompressed }))
  return JSON.stringify({
    version: "v1.0.0",
    data: bytesToHex(data),
    dataSignature: bytesToHex(signP256(quorum.privateKey, data)),
    enclaveQuorumPublic: quorum.publicKeyUncompressed
  })
}

/** The `{encappedPublic, ciphertext}` of an `encryptedOtpBundle`, or why it is malformed. */
export const parseSealedJson = (
  text: string
): { readonly ok: true; readonly enc: Uint8Array; readonly ciphertext: Uint8Array } | { readonly ok: false; readonly reason: string } => {
  const json = parseJson(text)
  if (!isRecord(json)) return { ok: false, reason: "must be a JSON object (as a string)" }
  const enc = typeof json["encappedPublic"] === "string" ? hexToBytes(json["encappedPublic"]) : undefined
  const ciphertext = typeof json["ciphertext"] === "string" ? hexToBytes(json["ciphertext"]) : undefined
  if (enc === undefined || (enc.length !== 65 && enc.length !== 33)) return { ok: false, reason: "encappedPublic must be a hex P-256 point" }
  if (ciphertext === undefined || ciphertext.length < 16) return { ok: false, reason: "ciphertext must be hex" }
  return { ok: true, enc, ciphertext }
}

/** Opens an `encryptedOtpBundle` with the issuance's target key: `{otp_code, public_key}` or undefined. */
export const openOtpBundle = (
  targetPrivateKey: string,
  sealed: { readonly enc: Uint8Array; readonly ciphertext: Uint8Array }
): { readonly otpCode: string; readonly publicKey: string } | undefined => {
  const pt = hpkeOpen({
    recipientPrivateKey: hexToBytes(targetPrivateKey)!,
    enc: sealed.enc,
    ciphertext: sealed.ciphertext,
    info: TURNKEY_INFO,
    aad: turnkeyAad
  })
  const text = pt === undefined ? undefined : utf8Decode(pt)
  const json = text === undefined ? undefined : parseJson(text)
  if (!isRecord(json) || typeof json["otp_code"] !== "string" || typeof json["public_key"] !== "string") return undefined
  return { otpCode: json["otp_code"], publicKey: json["public_key"] }
}

const compress = (uncompressed: Uint8Array) => Uint8Array.of(2 + (uncompressed[64]! & 1), ...uncompressed.subarray(1, 33))

/**
 * Legacy `encryptedSessionSigningKey`: base58check(enc_compressed(33) ‖ ciphertext) of the
 * 32-byte session private key, sealed to the client's uncompressed `clientPublicKey`.
 */
export const sealSessionKey = (clientPublicKey: Uint8Array, sessionPrivateKey: Uint8Array, ephemeralSecret: Uint8Array): string => {
  const { enc, ciphertext } = hpkeSeal({
    recipientPublicKey: clientPublicKey,
    plaintext: sessionPrivateKey,
    info: TURNKEY_INFO,
    aad: turnkeyAad,
    ephemeralSecret
  })
  return base58checkEncode(concatBytes(compress(enc), ciphertext))
}

/** Opens a base58check bundle with the recipient's private key (the client side of the legacy flow). */
export const openBase58Bundle = (bundle: string, recipientPrivateKey: Uint8Array): Uint8Array | undefined => {
  const raw = base58checkDecode(bundle)
  if (raw === undefined || raw.length < 33 + 16) return undefined
  return hpkeOpen({ recipientPrivateKey, enc: raw.subarray(0, 33), ciphertext: raw.subarray(33), info: TURNKEY_INFO, aad: turnkeyAad })
}

/**
 * `encryptedWalletCredentials`: JSON text `{version, data, dataSignature, enclaveQuorumPublic}`,
 * `data` hex of `{encappedPublic, ciphertext, organizationId}`; the sandbox leaves the signature
 * and quorum key empty, as the reference's sandbox does.
 */
export const sealExport = (clientPublicKey: Uint8Array, mnemonic: string, organizationId: string, ephemeralSecret: Uint8Array): string => {
  const { enc, ciphertext } = hpkeSeal({
    recipientPublicKey: clientPublicKey,
    plaintext: utf8(mnemonic),
    info: TURNKEY_INFO,
    aad: turnkeyAad,
    ephemeralSecret
  })
  const data = JSON.stringify({ encappedPublic: bytesToHex(enc), ciphertext: bytesToHex(ciphertext), organizationId })
  return JSON.stringify({ version: "v1.0.0", data: bytesToHex(utf8(data)), dataSignature: "", enclaveQuorumPublic: "" })
}
