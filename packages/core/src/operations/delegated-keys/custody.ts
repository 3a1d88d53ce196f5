import { Effect, Option } from "effect"
import { DelegatedKeys } from "../../domain/collections.ts"
import type { DelegatedKeyRecord } from "../../domain/delegated-keys/delegated-key.ts"
import { InvalidInput } from "../../domain/errors.ts"
import { isId } from "../../domain/ids.ts"
import { referenceNotFound } from "../../domain/not-found.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { makeStamp } from "../../crypto/stamp.ts"
import { custodiedKeyPair } from "../../signed-retry/custody.ts"
import { maySign } from "../../machines/delegated-key.ts"
import { Store } from "../../ports/store.ts"
import { fundingSourceBound } from "./funding-source.ts"

export { custodiedKeyPair } from "../../signed-retry/custody.ts"

export const loadDelegatedKey = (platform: PlatformRecord, id: string) =>
  Effect.gen(function* () {
    const found = isId("DelegatedKey", id) ? yield* (yield* Store).get(DelegatedKeys, platform.id, id) : Option.none()
    if (Option.isNone(found)) return yield* referenceNotFound("DelegatedKey", id)
    return found.value as DelegatedKeyRecord
  })

/**
 * What the service does with a delegated key: stamp a wallet's payload in place of a session
 * (DECISIONS #265), e.g. a card payment's quote execution. Only an ACTIVE key whose card still
 * lists its wallet signs (#261); a key this server does not custody (imported from another
 * server's state) cannot.
 */
export const delegatedKeyStamp = (platform: PlatformRecord, delegatedKeyId: string, payloadToSign: string) =>
  Effect.gen(function* () {
    const key = yield* loadDelegatedKey(platform, delegatedKeyId)
    if (!maySign(key.status))
      return yield* new InvalidInput({ message: `A ${key.status} delegated key cannot sign`, details: { reason: "DELEGATED_KEY_NOT_ACTIVE", status: key.status } })
    if (!(yield* fundingSourceBound(platform, key)))
      return yield* new InvalidInput({
        message: `Card ${key.cardId} is no longer funded by ${key.accountId}: the delegated key cannot sign`,
        details: { reason: "DELEGATED_KEY_FUNDING_SOURCE_UNBOUND", cardId: key.cardId, accountId: key.accountId }
      })
    const pair = yield* custodiedKeyPair(key.id)
    if (pair.publicKey !== key.publicKey)
      return yield* new InvalidInput({ message: "This server does not custody the delegated key's private key", details: { reason: "DELEGATED_KEY_NOT_CUSTODIED" } })
    return makeStamp(pair.privateKey, pair.publicKey, payloadToSign)
  })
