import { Clock, Effect, Option } from "effect"
import { ApiTokens, Platforms, InternalAccounts } from "../../domain/collections.ts"
import { RateLimited, Unauthorized } from "../../domain/errors.ts"
import { makeId } from "../../domain/ids.ts"
import { currencies, newInternalAccount } from "../../domain/internal-accounts/internal-account.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import type { Permission } from "../../domain/platform/api-token.ts"
import { rfc3339 } from "../../domain/time.ts"
import { constantTimeEqualText, hashSecret, hashSecretAsync, verifySecretHash } from "../../crypto/secrets.ts"
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
  /**
   * The scrypt hash (`hashSecret`'s format) of `clientSecret`, when the caller already holds one:
   * the CLI's default secret is public, so its hash is computed once in the source rather than at
   * every start (~35 ms of key derivation), and the CLI hashes any other secret in the thread pool
   * while it starts (`hashSecretAsync`). It must verify `clientSecret`; it is not checked.
   */
  readonly secretHash?: string
}

/**
 * What a new platform's record holds until its secret's hash is stored (`openPlatform`). It is
 * no scrypt hash, so it verifies no secret: until then only the process that opened the platform
 * accepts its secret (from memory).
 */
export const PENDING_SECRET_HASH = "pending"

/**
 * Finds the platform with this client id, or creates it with a platform-owned USD account
 * (the reference provisions platform internal accounts per supported currency). A changed
 * secret replaces the stored one, so the server's configured credentials always win.
 */
export const ensurePlatform = (input: PlatformInput) =>
  Effect.gen(function* () {
    const store = yield* Store
    cacheOf(store).delete(input.clientId)
    // scrypt runs before the transaction, never while it holds the write lock. The stored hash
    // is kept when it already verifies this secret (a restart with the same configuration), so
    // a running peer's verified-secret memory stays valid. A pending one verifies nothing.
    const [stored] = yield* store.findBy(Platforms, SERVER_SCOPE, "clientId", input.clientId)
    const keep =
      stored !== undefined &&
      stored.secretHash !== PENDING_SECRET_HASH &&
      ((input.secretHash !== undefined && stored.secretHash === input.secretHash) || (yield* Effect.promise(() => verifySecretHash(input.clientSecret, stored.secretHash ?? ""))))
    return yield* writePlatform(input, keep ? stored.secretHash : (input.secretHash ?? hashSecret(input.clientSecret)))
  })

/**
 * `ensurePlatform` for a server that answers before scrypt has run (~30 ms of CPU for a new
 * hash, as much again to check a stored one; DECISIONS #495). Without a given `secretHash`, the
 * platform is written now (a new one with PENDING_SECRET_HASH, an existing one keeping its hash)
 * and this process pins `clientSecret`: from now on it accepts that secret, and only it, for
 * this platform, whatever hash the store holds; `unsettled` then says the caller must run
 * `settleSecret`, which checks or derives the hash off the event loop and stores it for the
 * store's other users and later starts.
 */
export const openPlatform = (input: PlatformInput) =>
  Effect.gen(function* () {
    if (input.secretHash !== undefined) return { platform: yield* ensurePlatform(input), unsettled: false }
    const store = yield* Store
    cacheOf(store).delete(input.clientId)
    const platform = yield* writePlatform(input, undefined)
    pin(store, platform, input.clientSecret)
    return { platform, unsettled: true }
  })

/**
 * Settles the stored hash of a platform `openPlatform` opened: it is kept when it verifies the
 * secret (a restart with the same configuration); otherwise the secret's new hash replaces it,
 * unless another process stored a hash of its own meanwhile. What this process accepts does not
 * change (the pin), so no request racing the commit or a cached record can see a gap.
 */
export const settleSecret = (clientId: string, clientSecret: string) =>
  Effect.gen(function* () {
    const store = yield* Store
    const [stored] = yield* store.findBy(Platforms, SERVER_SCOPE, "clientId", clientId)
    if (stored === undefined) return
    if (stored.secretHash !== PENDING_SECRET_HASH && (yield* Effect.promise(() => verifySecretHash(clientSecret, stored.secretHash)))) return
    const secretHash = yield* Effect.promise(() => hashSecretAsync(clientSecret))
    yield* store.transaction(
      Effect.gen(function* () {
        const [existing] = yield* store.findBy(Platforms, SERVER_SCOPE, "clientId", clientId)
        // Another process stored a hash of its own meanwhile: it stays.
        if (existing === undefined || existing.secretHash !== stored.secretHash) return
        yield* store.put(Platforms, SERVER_SCOPE, { ...withoutLegacyDigest(existing), secretHash })
      })
    )
    cacheOf(store).delete(clientId)
  })

/** A stored platform without the bare SHA-256 of its secret that records before #128 held. */
const withoutLegacyDigest = (platform: PlatformRecord): PlatformRecord => {
  const { secretSha256: _legacy, ...current } = platform as PlatformRecord & { readonly secretSha256?: string }
  return current
}

/**
 * Creates the platform, or updates its secret's hash and webhook URL, in one transaction. An
 * undefined `secretHash` keeps an existing platform's and gives a new one PENDING_SECRET_HASH.
 */
const writePlatform = (input: PlatformInput, secretHash: string | undefined) =>
  Effect.gen(function* () {
    const store = yield* Store
    const ids = yield* Ids
    return yield* store.transaction(
      Effect.gen(function* () {
        const now = rfc3339(yield* Clock.currentTimeMillis)
        const [existing] = yield* store.findBy(Platforms, SERVER_SCOPE, "clientId", input.clientId)
        if (existing !== undefined) {
          if (secretHash === undefined && (input.webhookUrl === undefined || input.webhookUrl === existing.webhookUrl)) return existing
          const current = withoutLegacyDigest(existing)
          const hash = secretHash ?? current.secretHash
          const updated: PlatformRecord = input.webhookUrl === undefined ? { ...current, secretHash: hash } : { ...current, secretHash: hash, webhookUrl: input.webhookUrl }
          yield* store.put(Platforms, SERVER_SCOPE, updated)
          remember(store, updated, input.clientSecret)
          return updated
        }
        const base = {
          id: makeId("Platform", yield* ids.uuid),
          name: input.name ?? input.clientId,
          clientId: input.clientId,
          secretHash: secretHash ?? PENDING_SECRET_HASH,
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
 * Who a request's credentials name: the platform, with every permission when they are the
 * platform's own client id and secret, or an API token's permissions (DECISIONS #244, #245).
 */
export interface Principal {
  readonly platform: PlatformRecord
  readonly permissions: ReadonlyArray<Permission> | "ALL"
  /** The API token the request authenticated with, if it did with one. */
  readonly tokenId?: string
}

/** A credential's holder as authentication sees it: what verifies the secret and whom it names. */
interface Holder {
  /** The platform's or the token's id: what a verified secret is remembered under. */
  readonly key: string
  readonly secretHash: string
  readonly principal: Principal
}

/**
 * What authentication remembers per store, in process memory only: holders by client id for
 * one second (every request authenticates, and the store lookup would otherwise cost more than
 * the rest of a GET; `ensurePlatform`, a configuration change and a token's deletion clear it,
 * and the short lifetime bounds staleness when another process shares a SQLite file); the secret
 * each holder was last verified with, bound to the stored hash it matched (a changed secret
 * invalidates it) and compared in constant time (#32x: no per-request hash; the process holds the
 * secret it was just sent, never writes or logs it); and recent failures per client id.
 */
interface AuthMemory {
  readonly holders: Map<string, { readonly holder: Holder | undefined; readonly at: number }>
  readonly verified: Map<string, { readonly secretHash: string; readonly secret: string } | { readonly pinned: true; readonly secret: string }>
  readonly failures: Map<string, { count: number; readonly since: number }>
}
const authMemory = new WeakMap<object, AuthMemory>()
const memoryOf = (store: object): AuthMemory => {
  let m = authMemory.get(store)
  if (m === undefined) authMemory.set(store, (m = { holders: new Map(), verified: new Map(), failures: new Map() }))
  return m
}
const cacheOf = (store: object) => memoryOf(store).holders

/** Forgets every cached holder of a store: a platform's configuration or its tokens changed. */
export const forgetCachedCredentials = Effect.map(Store, (store) => cacheOf(store).clear())

const platformHolder = (platform: PlatformRecord): Holder => ({ key: platform.id, secretHash: platform.secretHash, principal: { platform, permissions: "ALL" } })

/** The platform by client id, else the API token by client id with its platform. */
const lookUpHolder = (clientId: string) =>
  Effect.gen(function* () {
    const store = yield* Store
    const [platform] = yield* store.findBy(Platforms, SERVER_SCOPE, "clientId", clientId)
    if (platform !== undefined) return platformHolder(platform)
    const [token] = yield* store.findBy(ApiTokens, SERVER_SCOPE, "clientId", clientId)
    if (token === undefined) return undefined
    const owner = Option.getOrUndefined(yield* store.get(Platforms, SERVER_SCOPE, token.platformId))
    if (owner === undefined) return undefined
    const holder: Holder = { key: token.id, secretHash: token.secretHash, principal: { platform: owner, permissions: token.permissions, tokenId: token.id } }
    return holder
  })

/** The holder cached for this client id, if still fresh; `null` when nothing fresh is cached. */
const cachedHolder = (memory: AuthMemory, clientId: string): Holder | undefined | null => {
  const hit = memory.holders.get(clientId)
  return hit !== undefined && Date.now() - hit.at < PLATFORM_CACHE_MS ? hit.holder : null
}

const findHolder = (memory: AuthMemory, clientId: string) =>
  Effect.map(lookUpHolder(clientId), (holder) => {
    if (holder !== undefined) memory.holders.set(clientId, { holder, at: Date.now() })
    return holder
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

/** The configured secret is known right: its first request need not pay scrypt. */
const remember = (store: object, platform: PlatformRecord, secret: string) =>
  memoryOf(store).verified.set(platform.id, { secretHash: platform.secretHash, secret })

/**
 * The configured secret of a platform this process opened (`openPlatform`): the only secret it
 * accepts for that platform from then on, whatever hash the store holds (pending, a previous
 * secret's, or another process's), until `ensurePlatform` is called for it again.
 */
const pin = (store: object, platform: PlatformRecord, secret: string) => memoryOf(store).verified.set(platform.id, { pinned: true, secret })

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
 * Who these credentials name, or 401 UNAUTHORIZED (#128): the platform's own client id and
 * secret, or an API token's (#244). The right secret takes the fast path after its first
 * verification (compared in constant time with the secret that verified, synchronous); anything
 * else is checked with scrypt off the event loop. After AUTH_FAILURE_LIMIT wrong secrets for one client id within the
 * window, further attempts that miss the fast path answer 429 with Retry-After without hashing.
 */
export const authenticatePrincipal = (credentials: ClientCredentials): Effect.Effect<Principal, Unauthorized | RateLimited | StoreError, Store> =>
  // Every request runs this first: a cached holder whose secret verified before is answered in
  // the one step that reads the Store tag; only a miss looks the holder up in the store.
  Effect.flatMap(Store, (store) => {
    const memory = memoryOf(store)
    const cached = cachedHolder(memory, credentials.clientId)
    return cached === null
      ? Effect.flatMap(findHolder(memory, credentials.clientId), (holder) => judge(memory, credentials, holder))
      : judge(memory, credentials, cached)
  })

/**
 * The fast path for a pinned secret, or one that verified against this stored hash before; else
 * scrypt.
 */
const judge = (memory: AuthMemory, credentials: ClientCredentials, holder: Holder | undefined): Effect.Effect<Principal, Unauthorized | RateLimited> => {
  const known = holder === undefined ? undefined : memory.verified.get(holder.key)
  const pinned = known !== undefined && "pinned" in known
  if (holder !== undefined && known !== undefined && (pinned || known.secretHash === holder.secretHash) && constantTimeEqualText(known.secret, credentials.clientSecret))
    return Effect.succeed(holder.principal)
  const now = Date.now()
  const refusal = throttled(memory, credentials.clientId, now)
  if (refusal !== undefined) return Effect.fail(refusal)
  // An unknown client id, and a pinned platform's wrong secret, are checked against a dummy hash:
  // a refusal takes as long as any wrong secret's, so its time says nothing of the client id.
  return Effect.flatMap(
    Effect.promise(() => verifySecretHash(credentials.clientSecret, pinned ? "" : (holder?.secretHash ?? ""))),
    (ok): Effect.Effect<Principal, Unauthorized> => {
      if (holder === undefined || pinned || !ok) {
        recordFailure(memory, credentials.clientId, now)
        return Effect.fail(credentialsRefused("INVALID_CREDENTIALS"))
      }
      memory.failures.delete(credentials.clientId)
      memory.verified.set(holder.key, { secretHash: holder.secretHash, secret: credentials.clientSecret })
      return Effect.succeed(holder.principal)
    }
  )
}

/** The platform these credentials name (see `authenticatePrincipal`). */
export const authenticate = (credentials: ClientCredentials): Effect.Effect<PlatformRecord, Unauthorized | RateLimited | StoreError, Store> =>
  Effect.map(authenticatePrincipal(credentials), (p) => p.platform)

/**
 * The platform as stored now: an embedder may hold a record from before a `PATCH /config`
 * (DECISIONS #243). A record the store does not know (built by hand) is used as given.
 */
export const currentPlatform = (platform: PlatformRecord) => withCurrentPlatform(platform, Effect.succeed)

/** `currentPlatform` then `f`, without a step between the read and `f` (every embedding call starts so). */
export const withCurrentPlatform = <A, E, R>(platform: PlatformRecord, f: (current: PlatformRecord) => Effect.Effect<A, E, R>) =>
  Effect.flatMap(Store, (store) => Effect.flatMap(store.get(Platforms, SERVER_SCOPE, platform.id), (found) => f(found._tag === "Some" ? found.value : platform)))
