import { base64UrlToBytes, isRecord, parseJson, utf8Decode } from "./encoding.ts"
import { sha256Hex } from "./secrets.ts"
import { lifetimes } from "../limits.ts"

/**
 * Sandbox OIDC tokens (spec, Authentication 10): JWT-shaped, signature not checked, claims
 * checked exactly. A malformed token is 400 INVALID_INPUT; a claim that fails is 401 with a reason.
 */
export const SUPPORTED_ISSUERS: ReadonlyArray<string> = ["https://accounts.google.com", "accounts.google.com", "https://appleid.apple.com"]


export interface OidcIdentity {
  readonly iss: string
  readonly aud: string
  readonly sub: string
  readonly email?: string
}

export type OidcDecode = { readonly ok: true; readonly claims: Record<string, unknown> } | { readonly ok: false; readonly reason: string }

/** `b64url(header).b64url(payload).<anything>` with JSON objects in the first two parts. */
export const decodeOidcToken = (token: string): OidcDecode => {
  const parts = token.split(".")
  if (parts.length !== 3) return { ok: false, reason: "must have three dot-separated parts" }
  const [h, p] = parts.map((s) => {
    const bytes = base64UrlToBytes(s)
    const text = bytes === undefined ? undefined : utf8Decode(bytes)
    return text === undefined ? undefined : parseJson(text)
  })
  if (!isRecord(h)) return { ok: false, reason: "header is not base64url JSON" }
  if (!isRecord(p)) return { ok: false, reason: "payload is not base64url JSON" }
  return { ok: true, claims: p }
}

export type ClaimCheck = { readonly ok: true; readonly identity: OidcIdentity } | { readonly ok: false; readonly reason: string }

const fail = (reason: string): ClaimCheck => ({ ok: false, reason })

/**
 * The sandbox claim rules. `nonceFor` is the exact `clientPublicKey` string of a verify call:
 * the nonce must be the lowercase hex SHA-256 of that string's bytes.
 */
export const checkOidcClaims = (claims: Record<string, unknown>, nowMs: number, nonceFor?: string): ClaimCheck => {
  const { iss, aud, sub, iat, exp, nonce, email } = claims
  if (typeof iss !== "string" || !SUPPORTED_ISSUERS.includes(iss)) return fail("Unsupported token issuer")
  const audience = Array.isArray(aud) && aud.length === 1 ? aud[0] : aud
  if (typeof audience !== "string" || audience.length === 0) return fail("Token audience must be a non-empty string or one-element array")
  if (typeof sub !== "string" || sub.length === 0) return fail("Token subject is missing")
  if (typeof iat !== "number" || !Number.isFinite(iat)) return fail("Token iat is missing")
  const issuedMs = iat * 1000
  if (nowMs - issuedMs > lifetimes.oidcFreshnessMs + lifetimes.oidcSkewMs) return fail("Token is older than 60 seconds")
  if (issuedMs - nowMs > lifetimes.oidcSkewMs) return fail("Token iat is in the future")
  if (typeof exp !== "number" || !Number.isFinite(exp)) return fail("Token exp is missing")
  if (exp * 1000 <= nowMs) return fail("Token has expired")
  if (nonceFor !== undefined && nonce !== sha256Hex(nonceFor)) return fail("Token nonce does not match SHA-256 of clientPublicKey")
  return { ok: true, identity: { iss, aud: audience, sub, ...(typeof email === "string" ? { email } : {}) } }
}

/** Whether two identities are the same provider account (the credential's iss, aud, sub triple). */
export const sameIdentity = (a: OidcIdentity, b: OidcIdentity): boolean => a.iss === b.iss && a.aud === b.aud && a.sub === b.sub
