/** Byte encodings shared by the crypto modules. Every decoder returns undefined on bad input. */

const HEX = /^(?:[0-9a-fA-F]{2})*$/

export const hexToBytes = (hex: string): Uint8Array | undefined =>
  HEX.test(hex) ? new Uint8Array(Buffer.from(hex, "hex")) : undefined

export const bytesToHex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex")

const B64URL = /^[A-Za-z0-9_-]*={0,2}$/

/** base64url with or without padding (WebAuthn fixtures carry `=`); standard base64 is refused. */
export const base64UrlToBytes = (s: string): Uint8Array | undefined =>
  B64URL.test(s) && s.replace(/=+$/, "").length % 4 !== 1 ? new Uint8Array(Buffer.from(s, "base64url")) : undefined

export const bytesToBase64Url = (bytes: Uint8Array): string => Buffer.from(bytes).toString("base64url")

export const utf8 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, "utf8"))

const strictUtf8 = new TextDecoder("utf-8", { fatal: true })

export const utf8Decode = (b: Uint8Array): string | undefined => {
  try {
    return strictUtf8.decode(b)
  } catch {
    return undefined
  }
}

export const concatBytes = (...parts: ReadonlyArray<Uint8Array>): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

/** JSON.parse that answers undefined instead of throwing. */
export const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

export const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)
