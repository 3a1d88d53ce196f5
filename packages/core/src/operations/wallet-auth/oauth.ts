import { Clock, Effect } from "effect"
import type { AuthMethodRecord } from "../../domain/wallet-auth/auth-method.ts"
import { Unauthorized } from "../../domain/errors.ts"
import { invalidInput } from "../../domain/field-errors.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { checkOidcClaims, decodeOidcToken, type OidcIdentity, sameIdentity } from "../../crypto/oidc.ts"
import { openSession } from "./sessions.ts"
import { LEGACY_OIDC_LITERAL } from "../../sandbox/literals.ts"

const refused = (reason: string) => new Unauthorized({ message: "OIDC token rejected", details: { reason } })

/**
 * The identity of a sandbox OIDC token, checked per the spec's rule 10. `nonceFor` is the
 * verify call's exact `clientPublicKey`; creation carries no nonce.
 */
export const oauthIdentityFromToken = (token: string, nonceFor?: string) =>
  Effect.gen(function* () {
    if (token === LEGACY_OIDC_LITERAL) return yield* refused("The legacy sandbox OIDC literal is no longer accepted")
    const decoded = decodeOidcToken(token)
    if (!decoded.ok) return yield* invalidInput([{ field: "oidcToken", message: `is not a JWT: ${decoded.reason}` }])
    const checked = checkOidcClaims(decoded.claims, yield* Clock.currentTimeMillis, nonceFor)
    if (!checked.ok) return yield* refused(checked.reason)
    return checked.identity as OidcIdentity
  })

/** OAUTH verify: one call, a fresh token for the credential's identity → 200 AuthSession. */
export const verifyOauth = (platform: PlatformRecord, credential: AuthMethodRecord, oidcToken: string, clientPublicKey: string) =>
  Effect.gen(function* () {
    const identity = yield* oauthIdentityFromToken(oidcToken, clientPublicKey)
    if (credential.oauth === undefined || !sameIdentity(identity, credential.oauth))
      return yield* refused("Token identity (iss, aud, sub) does not match the credential")
    return yield* openSession(platform, credential, clientPublicKey)
  })
