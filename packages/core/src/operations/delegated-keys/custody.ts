import { createHmac } from "node:crypto"
import { Effect, Option } from "effect"
import { DelegatedKeys } from "../../domain/collections.ts"
import type { DelegatedKeyRecord } from "../../domain/delegated-keys/delegated-key.ts"
import { InvalidInput } from "../../domain/errors.ts"
import { isId } from "../../domain/ids.ts"
import { referenceNotFound } from "../../domain/not-found.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { keyPairOf } from "../../crypto/p256.ts"
import { makeStamp } from "../../crypto/stamp.ts"
import { maySign } from "../../machines/delegated-key.ts"
import { Keys } from "../../ports/keys.ts"
import { Store } from "../../ports/store.ts"
import { fundingSourceBound } from "./funding-source.ts"

/**
 * The engine custodies delegated keys (DECISIONS #263): a key pair is derived from one server
 * secret and the key's id, so no private key is ever stored in a record, exported in a state
 * document or answered. The same id on the same server always gives the same pair.
 */
const CUSTODY_SECRET = "delegated-keys-p256"

export const custodiedKeyPair = (delegatedKeyId: string) =>
  Effect.map(
    Effect.flatMap(Keys, (keys) => keys.secret(CUSTODY_SECRET, 32)),
    (secret) => keyPairOf(new Uint8Array(createHmac("sha256", secret).update(delegatedKeyId).digest()))
  )

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
