import { Effect, Option } from "effect"
import { AuthMethods, InternalAccounts, Sessions } from "../../domain/collections.ts"
import type { AuthMethodRecord } from "../../domain/wallet-auth/auth-method.ts"
import { referenceNotFound } from "../../domain/not-found.ts"
import { isId } from "../../domain/ids.ts"
import type { InternalAccountRecord } from "../../domain/internal-accounts/internal-account.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import type { SessionRecord } from "../../domain/wallet-auth/session.ts"
import { keyPairOf } from "../../crypto/p256.ts"
import { serverKeyPair } from "./server-keys.ts"
import { Ids } from "../../ports/ids.ts"
import { Store } from "../../ports/store.ts"

/** Lookups every wallet-auth operation shares. A malformed or foreign id is simply not found. */

export const loadWallet = (platform: PlatformRecord, accountId: string) =>
  Effect.gen(function* () {
    const store = yield* Store
    const found = isId("InternalAccount", accountId) ? yield* store.get(InternalAccounts, platform.id, accountId) : Option.none()
    if (Option.isNone(found) || found.value.type !== "EMBEDDED_WALLET") return yield* referenceNotFound("InternalAccount", accountId)
    return found.value as InternalAccountRecord
  })

export const loadCredential = (platform: PlatformRecord, id: string) =>
  Effect.gen(function* () {
    const found = isId("AuthMethod", id) ? yield* (yield* Store).get(AuthMethods, platform.id, id) : Option.none()
    if (Option.isNone(found)) return yield* referenceNotFound("AuthMethod", id)
    return found.value as AuthMethodRecord
  })

export const loadSession = (platform: PlatformRecord, id: string) =>
  Effect.gen(function* () {
    const found = isId("Session", id) ? yield* (yield* Store).get(Sessions, platform.id, id) : Option.none()
    if (Option.isNone(found)) return yield* referenceNotFound("Session", id)
    return found.value as SessionRecord
  })

export const credentialsOf = (platform: PlatformRecord, accountId: string) =>
  Effect.flatMap(Store, (store) => store.findBy(AuthMethods, platform.id, "accountId", accountId))

/** A fresh P-256 key pair from the Ids port (seeded runs stay reproducible). */
export const freshKeyPair = Effect.flatMap(Ids, (ids) =>
  Effect.map(ids.bytes(32), keyPairOf)
)

/** 32 bytes of randomness, for HPKE ephemeral keys. */
export const ephemeralSecret = Effect.flatMap(freshKeyPair, (k) => Effect.succeed(Buffer.from(k.privateKey, "hex")))

/**
 * The server's wallet key (the reference's "enclave quorum" key): signs OTP target bundles and
 * the OTP verification tokens. Kept in the Store, so it survives restarts.
 */
export const quorumKey = serverKeyPair("wallet-quorum-p256")
