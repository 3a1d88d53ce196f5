import { Clock, Effect } from "effect"
import { Platforms, InternalAccounts } from "../../domain/collections.ts"
import { Unauthorized } from "../../domain/errors.ts"
import { makeId } from "../../domain/ids.ts"
import { currencies, newInternalAccount } from "../../domain/internal-accounts/internal-account.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { rfc3339 } from "../../domain/time.ts"
import { secretMatches, sha256Hex } from "../../crypto/secrets.ts"
import { Ids } from "../../ports/ids.ts"
import { SERVER_SCOPE, Store, type StoreError } from "../../ports/store.ts"
import { PLATFORM_CACHE_MS } from "../../limits.ts"

export interface PlatformInput {
  readonly clientId: string
  readonly clientSecret: string
  readonly name?: string
  readonly umaDomain?: string
  readonly counterpartyRequirements?: boolean
  readonly webhookUrl?: string
}

/**
 * Finds the platform with this client id, or creates it with a platform-owned USD account
 * (the reference provisions platform internal accounts per supported currency). A changed
 * secret replaces the stored one, so the server's configured credentials always win.
 */
export const ensurePlatform = (input: PlatformInput) =>
  Effect.gen(function* () {
    const store = yield* Store
    const ids = yield* Ids
    cacheOf(store).delete(input.clientId)
    return yield* store.transaction(
      Effect.gen(function* () {
        const now = rfc3339(yield* Clock.currentTimeMillis)
        const [existing] = yield* store.findBy(Platforms, SERVER_SCOPE, "clientId", input.clientId)
        const secretSha256 = sha256Hex(input.clientSecret)
        if (existing !== undefined) {
          const updated: PlatformRecord = input.webhookUrl === undefined ? { ...existing, secretSha256 } : { ...existing, secretSha256, webhookUrl: input.webhookUrl }
          yield* store.put(Platforms, SERVER_SCOPE, updated)
          return updated
        }
        const base = {
          id: makeId("Platform", yield* ids.uuid),
          name: input.name ?? input.clientId,
          clientId: input.clientId,
          secretSha256,
          umaDomain: input.umaDomain ?? "sandbox.tessera.local",
          counterpartyRequirements: input.counterpartyRequirements ?? true,
          createdAt: now
        }
        const platform: PlatformRecord = input.webhookUrl === undefined ? base : { ...base, webhookUrl: input.webhookUrl }
        yield* store.put(Platforms, SERVER_SCOPE, platform)
        yield* provisionPlatformAccounts(platform.id, now)
        return platform
      })
    )
  })

/** What every new platform holds: its own USD account (also after a sandbox reset). */
export const provisionPlatformAccounts = (platformId: string, now: string) =>
  Effect.gen(function* () {
    const account = newInternalAccount({
      id: makeId("InternalAccount", yield* (yield* Ids).uuid),
      type: "INTERNAL_FIAT",
      currency: currencies["USD"]!,
      now
    })
    yield* (yield* Store).put(InternalAccounts, platformId, account)
    return account
  })

/**
 * Platforms by client id, per store, for one second: every request authenticates, and the
 * store lookup would otherwise cost more than the rest of a GET. The secret is still hashed and
 * compared on every request; only the record is cached. `ensurePlatform` clears the entry, and
 * the short lifetime bounds staleness when another process shares a SQLite file.
 */
const platformCache = new WeakMap<object, Map<string, { readonly platform: PlatformRecord | undefined; readonly at: number }>>()
const cacheOf = (store: object) => {
  let m = platformCache.get(store)
  if (m === undefined) platformCache.set(store, (m = new Map()))
  return m
}

const findPlatform = (clientId: string) =>
  Effect.flatMap(Store, (store) => {
    const cache = cacheOf(store)
    const hit = cache.get(clientId)
    if (hit !== undefined && Date.now() - hit.at < PLATFORM_CACHE_MS) return Effect.succeed(hit.platform)
    return Effect.map(store.findBy(Platforms, SERVER_SCOPE, "clientId", clientId), ([platform]) => {
      if (platform !== undefined) cache.set(clientId, { platform, at: Date.now() })
      return platform
    })
  })

/** Why a request's credentials were refused; the adapter names the first two, `authenticate` the third. */
export type CredentialsRefusal = "MISSING_CREDENTIALS" | "MALFORMED_CREDENTIALS" | "INVALID_CREDENTIALS"

export const credentialsRefused = (reason: CredentialsRefusal) =>
  new Unauthorized({ message: "Invalid or missing API credentials", details: { reason } })

/** A platform's API credentials, however the transport carried them (HTTP Basic for the adapter). */
export interface ClientCredentials {
  readonly clientId: string
  readonly clientSecret: string
}

/** The platform these credentials name, or 401 UNAUTHORIZED. */
export const authenticate = (credentials: ClientCredentials): Effect.Effect<PlatformRecord, Unauthorized | StoreError, Store> =>
  // Every request runs this first, so it is a plain chain rather than a generator.
  Effect.flatMap(findPlatform(credentials.clientId), (platform) => {
    // Hash even for an unknown id so the answer takes the same time either way.
    const ok = secretMatches(credentials.clientSecret, platform?.secretSha256 ?? "")
    return platform === undefined || !ok ? Effect.fail(credentialsRefused("INVALID_CREDENTIALS")) : Effect.succeed(platform)
  })
