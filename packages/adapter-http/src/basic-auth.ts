import { Effect, Option } from "effect"
import { authenticatePrincipal, type ClientCredentials, credentialsRefused, type Principal, type SignedHeaders, type Store, type RateLimited, type StoreError, type Unauthorized } from "@tessera/core"

const strictUtf8 = new TextDecoder("utf-8", { fatal: true })

/** Parses `Authorization: Basic base64(id:secret)` without trusting any part of it. */
export const parseBasic = (header: string | undefined): Option.Option<ClientCredentials> => {
  if (header === undefined) return Option.none()
  const m = /^Basic[ ]+([A-Za-z0-9+/]+={0,2})[ ]*$/i.exec(header)
  if (m === null) return Option.none()
  let decoded: string
  try {
    decoded = atob(m[1]!)
    // atob yields one char per byte; only non-ASCII bytes need a real (strict) UTF-8 decode.
    if (!/^[\x00-\x7f]*$/.test(decoded)) decoded = strictUtf8.decode(Uint8Array.from(decoded, (c) => c.charCodeAt(0)))
  } catch {
    return Option.none()
  }
  const colon = decoded.indexOf(":")
  return colon <= 0 ? Option.none() : Option.some({ clientId: decoded.slice(0, colon), clientSecret: decoded.slice(colon + 1) })
}

/** Who a request's `Authorization` header names (the platform, or one of its API tokens), or 401 UNAUTHORIZED with the reason. */
export const authenticateRequest = (authorization: string | undefined): Effect.Effect<Principal, Unauthorized | RateLimited | StoreError, Store> => {
  const credentials = parseBasic(authorization)
  return Option.isNone(credentials)
    ? Effect.fail(credentialsRefused(authorization === undefined ? "MISSING_CREDENTIALS" : "MALFORMED_CREDENTIALS"))
    : authenticatePrincipal(credentials.value)
}

/** The signature headers of a signed retry; `Grid-Wallet-Signature` is the reference's alias (DECISIONS #2). */
export const walletHeaders = (header: (name: string) => string | undefined): SignedHeaders => ({
  signature: header("service-wallet-signature") ?? header("grid-wallet-signature"),
  requestId: header("request-id")
})
