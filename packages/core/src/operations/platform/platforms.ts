import { Clock, Effect } from "effect"
import { Platforms, InternalAccounts } from "../../domain/collections.ts"
import { RateLimited, Unauthorized } from "../../domain/errors.ts"
import { makeId } from "../../domain/ids.ts"
import { currencies, newInternalAccount } from "../../domain/internal-accounts/internal-account.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { rfc3339 } from "../../domain/time.ts"
import { constantTimeEqual, hashSecret, verifySecretHash } from "../../crypto/secrets.ts"
import { hash } from "node:crypto"
import { Ids } from "../../ports/ids.ts"
import { SERVER_SCOPE, Store, type StoreError } from "../../ports/store.ts"
import { AUTH_FAILURE_LIMIT, AUTH_FAILURE_WINDOW_MS, PLATFORM_CACHE_MS } from "../../limits.ts"

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
    // scrypt runs before the transaction, never while it holds the write lock. The stored hash
    // is kept when it already verifies this secret (a restart with the same configuration), so
    // a running peer's verified-secret memory stays valid.
    const [stored] = yield* store.findBy(Platforms, SERVER_SCOPE, "clientId", input.clientId)
    const keep = stored !== undefined && (yield* Effect.promise(() => verifySecretHash(input.clientSecret, stored.secretHash ?? "")))
    const secretHash = keep ? stored.secretHash : hashSecret(input.clientSecret)
    return yield* store.transaction(
      Effect.gen(function* () {
        const now = rfc3339(yield* Clock.currentTimeMillis)
        const [existing] = yield* store.findBy(Platforms, SERVER_SCOPE, "clientId", input.clientId)
        if (existing !== undefined) {
          const { secretSha256: _legacy, ...current } = existing as PlatformRecord & { readonly secretSha256?: string }
          const updated: PlatformRecord = input.webhookUrl === undefined ? { ...current, secretHash } : { ...current, secretHash, webhookUrl: input.webhookUrl }
          yield* store.put(Platforms, SERVER_SCOPE, updated)
          remember(store, updated, input.clientSecret)
          return updated
        }
        const base = {
          id: makeId("Platform", yield* ids.uuid),
          name: input.name ?? input.clientId,
          clientId: input.clientId,
          secretHash,
          umaDomain: input.umaDomain ?? "sandbox.tessera.local",
          counterpartyRequirements: input.counterpartyRequirements ?? true,
          createdAt: now
        }
        const platform: PlatformRecord = input.webhookUrl === undefined ? base : { ...base, webhookUrl: input.webhookUrl }
        yield* store.put(Platforms, SERVER_SCOPE, platform)
        yield* provisionPlatformAccounts(platform.id, now)
        remember(store, platform, input.clientSecret)
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
 * What authentication remembers per store, in process memory only: platforms by client id for
 * one second (every request authenticates, and the store lookup would otherwise cost more than
 * the rest of a GET; `ensurePlatform` clears the entry, and the short lifetime bounds staleness
 * when another process shares a SQLite file); the secret each platform was last verified with,
 * as a fast digest bound to the stored hash it matched (a changed secret invalidates it; the
 * digest is never written anywhere); and recent failures per client id.
 */
interface AuthMemory {
  readonly platforms: Map<string, { readonly platform: PlatformRecord | undefined; readonly at: number }>
  readonly verified: Map<string, { readonly secretHash: string; readonly digest: Buffer }>
  readonly failures: Map<string, { count: number; readonly since: number }>
}
const authMemory = new WeakMap<object, AuthMemory>()
const memoryOf = (store: object): AuthMemory => {
  let m = authMemory.get(store)
  if (m === undefined) authMemory.set(store, (m = { platforms: new Map(), verified: new Map(), failures: new Map() }))
  return m
}
const cacheOf = (store: object) => memoryOf(store).platforms

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

const digestOf = (secret: string): Buffer => hash("sha256", secret, "buffer")

/** The configured secret is known right: its first request need not pay scrypt. */
const remember = (store: object, platform: PlatformRecord, secret: string) =>
  memoryOf(store).verified.set(platform.id, { secretHash: platform.secretHash, digest: digestOf(secret) })

const throttled = (memory: AuthMemory, clientId: string, now: number): RateLimited | undefined => {
  const f = memory.failures.get(clientId)
  if (f === undefined || now - f.since >= AUTH_FAILURE_WINDOW_MS) return undefined
  if (f.count < AUTH_FAILURE_LIMIT) return undefined
  return new RateLimited({
    message: "Too many wrong credentials for this client id; wait before trying again",
    details: { reason: "TOO_MANY_FAILED_AUTHENTICATIONS" },
    retryAfterSeconds: Math.ceil((f.since + AUTH_FAILURE_WINDOW_MS - now) / 1000)
  })
}

const recordFailure = (memory: AuthMemory, clientId: string, now: number) => {
  const f = memory.failures.get(clientId)
  if (f === undefined || now - f.since >= AUTH_FAILURE_WINDOW_MS) {
    // Bounded: a flood of made-up client ids cannot grow the map without limit.
    if (memory.failures.size >= 10_000) memory.failures.clear()
    memory.failures.set(clientId, { count: 1, since: now })
  } else f.count++
}

/**
 * The platform these credentials name, or 401 UNAUTHORIZED (#128). The right secret takes the
 * fast path after its first verification (a SHA-256 compared in constant time, synchronous);
 * anything else is checked with scrypt off the event loop. After AUTH_FAILURE_LIMIT wrong
 * secrets for one client id within the window, further attempts that miss the fast path answer
 * 429 with Retry-After without hashing.
 */
export const authenticate = (credentials: ClientCredentials): Effect.Effect<PlatformRecord, Unauthorized | RateLimited | StoreError, Store> =>
  // Every request runs this first, so the fast path is a plain chain rather than a generator.
  Effect.flatMap(Store, (store) =>
    Effect.flatMap(findPlatform(credentials.clientId), (platform): Effect.Effect<PlatformRecord, Unauthorized | RateLimited> => {
      const memory = memoryOf(store)
      const known = platform === undefined ? undefined : memory.verified.get(platform.id)
      if (platform !== undefined && known !== undefined && known.secretHash === platform.secretHash && constantTimeEqual(digestOf(credentials.clientSecret), known.digest))
        return Effect.succeed(platform)
      const now = Date.now()
      const refusal = throttled(memory, credentials.clientId, now)
      if (refusal !== undefined) return Effect.fail(refusal)
      // An unknown client id is checked against a dummy hash, so it takes as long as a wrong secret.
      return Effect.flatMap(
        Effect.promise(() => verifySecretHash(credentials.clientSecret, platform?.secretHash ?? "")),
        (ok): Effect.Effect<PlatformRecord, Unauthorized> => {
          if (platform === undefined || !ok) {
            recordFailure(memory, credentials.clientId, now)
            return Effect.fail(credentialsRefused("INVALID_CREDENTIALS"))
          }
          memory.failures.delete(credentials.clientId)
          memory.verified.set(platform.id, { secretHash: platform.secretHash, digest: digestOf(credentials.clientSecret) })
          return Effect.succeed(platform)
        }
      )
    })
  )
