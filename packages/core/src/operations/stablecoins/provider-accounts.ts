import { Clock, Effect, Option, Schema } from "effect"
import { StablecoinProviderAccounts } from "../../domain/collections.ts"
import {
  StablecoinProviderAccountInvalid,
  StablecoinProviderAccountNotFound,
  StablecoinProviderAccountRevoked,
  StablecoinProviderAccountSelectionRequired
} from "../../domain/errors.ts"
import { decodeInput } from "../../domain/field-errors.ts"
import { makeId } from "../../domain/ids.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { ProviderAccountFilters, ProviderAccountLink } from "../../domain/stablecoins/inputs.ts"
import { providerAccountView, type StablecoinProviderAccountRecord } from "../../domain/stablecoins/records.ts"
import { rfc3339 } from "../../domain/time.ts"
import { DueSteps } from "../../domain/transactions/due-step.ts"
import { sha256Hex } from "../../crypto/secrets.ts"
import { STABLECOIN_LINK_CHANGE_MS } from "../../limits.ts"
import { Ids } from "../../ports/ids.ts"
import { SERVER_SCOPE, Store } from "../../ports/store.ts"
import { linkOutcome, providerAccountIdFrom } from "../../sandbox/stablecoins.ts"
import { equal, listPage, pageParams } from "../common/listing.ts"
import { runDueStepsOf } from "../transactions/due-runner.ts"
import { keyedCreate } from "./keyed.ts"

const decodeLink = decodeInput(ProviderAccountLink)

const notFound = (id: string) =>
  new StablecoinProviderAccountNotFound({ message: `Stablecoin provider account link ${id} not found`, details: { stablecoinProviderAccountId: id } })

/**
 * POST /stablecoin-provider-accounts (DECISIONS #352, #361): the sandbox provider verifies the
 * credentials by the apiClientId's suffix (002: 400 STABLECOIN_PROVIDER_ACCOUNT_INVALID, nothing
 * linked). One link per provider account: linking an account already linked refreshes its
 * credentials and makes it ACTIVE again, under the same id. The secret is never stored.
 */
export const linkProviderAccount = (platform: PlatformRecord, body: unknown, idempotencyKey?: string) =>
  keyedCreate(platform, idempotencyKey, "/stablecoin-provider-accounts", body, decodeLink, (input) =>
    Effect.gen(function* () {
      const outcome = linkOutcome(input.apiClientId)
      if (outcome === "INVALID")
        return yield* Effect.fail(
          new StablecoinProviderAccountInvalid({
            message: "The provider did not accept these API credentials",
            details: { provider: input.provider, reason: "CREDENTIALS_REJECTED" }
          })
        )
      const store = yield* Store
      const nowMs = yield* Clock.currentTimeMillis
      const now = rfc3339(nowMs)
      const providerAccountId = input.providerAccountId ?? providerAccountIdFrom(sha256Hex(`brale-account:${input.apiClientId}`))
      const existing = yield* store.findBy(StablecoinProviderAccounts, platform.id, "account", `${input.provider}|${providerAccountId}`)
      const before = existing[0]
      const link: StablecoinProviderAccountRecord = {
        id: before?.id ?? makeId("StablecoinProviderAccount", yield* (yield* Ids).uuid),
        provider: input.provider,
        providerAccountId,
        providerEnvironment: "SANDBOX",
        status: "ACTIVE",
        apiClientId: input.apiClientId,
        lastVerifiedAt: now,
        createdAt: before?.createdAt ?? now,
        updatedAt: now
      }
      yield* store.put(StablecoinProviderAccounts, platform.id, link)
      // New credentials replace the old ones' fate: a revocation the sandbox scheduled for them is dropped.
      if (before !== undefined)
        for (const d of yield* store.findBy(DueSteps, SERVER_SCOPE, "transaction", `${platform.id}|${before.id}`)) yield* store.remove(DueSteps, SERVER_SCOPE, d.id)
      if (outcome !== "ACTIVE")
        yield* store.put(DueSteps, SERVER_SCOPE, {
          id: yield* (yield* Ids).uuid,
          scope: platform.id,
          transactionId: link.id,
          dueAtMs: nowMs + STABLECOIN_LINK_CHANGE_MS,
          kind: "STABLECOIN_PROVIDER_ACCOUNT",
          status: outcome === "REVOKED_LATER" ? "REVOKED" : "INVALID",
          linkedAt: now
        })
      return providerAccountView(link)
    })
  )

/** A link of the platform where it stands on the engine's clock, or 404 STABLECOIN_PROVIDER_ACCOUNT_NOT_FOUND. */
export const loadProviderAccount = (platform: PlatformRecord, id: string) =>
  Effect.gen(function* () {
    yield* runDueStepsOf(platform.id, id)
    const found = yield* (yield* Store).get(StablecoinProviderAccounts, platform.id, id)
    return Option.isSome(found) ? found.value : yield* Effect.fail(notFound(id))
  })

export const getProviderAccount = (platform: PlatformRecord, id: string) => Effect.map(loadProviderAccount(platform, id), providerAccountView)

export const ProviderAccountListQuery = Schema.Struct({ ...ProviderAccountFilters, ...pageParams })

/** GET /stablecoin-provider-accounts: the platform's links in the order they were made, by provider and status. */
export const listProviderAccounts = (platform: PlatformRecord, query: unknown) =>
  listPage({
    collection: StablecoinProviderAccounts,
    scope: platform.id,
    querySchema: ProviderAccountListQuery,
    query,
    where: (q) => [equal("provider", q.provider), equal("status", q.status)],
    view: providerAccountView
  })

/** A link that cannot be used: 400 with the code of its status. */
const unusable = (link: StablecoinProviderAccountRecord) =>
  link.status === "REVOKED"
    ? new StablecoinProviderAccountRevoked({
        message: `Stablecoin provider account link ${link.id} has been revoked; link the provider account again`,
        details: { stablecoinProviderAccountId: link.id, status: link.status }
      })
    : new StablecoinProviderAccountInvalid({
        message: `Stablecoin provider account link ${link.id} is not usable: its credentials no longer verify`,
        details: { stablecoinProviderAccountId: link.id, status: link.status }
      })

/** The link an operation runs through must still be ACTIVE (400 _REVOKED or _INVALID otherwise). */
export const usableLink = (platform: PlatformRecord, id: string) =>
  Effect.gen(function* () {
    const link = yield* loadProviderAccount(platform, id)
    return link.status === "ACTIVE" ? link : yield* Effect.fail(unusable(link))
  })

/**
 * The selection rule of registration (DECISIONS #356): a named link must exist (404) and be
 * ACTIVE (400 _REVOKED / _INVALID). Unnamed: the one ACTIVE link; several is 400
 * STABLECOIN_PROVIDER_ACCOUNT_SELECTION_REQUIRED; none ACTIVE answers for the newest link there
 * is (its status's code), or 404 when the platform linked none.
 */
export const selectProviderAccount = (platform: PlatformRecord, id: string | undefined) =>
  Effect.gen(function* () {
    if (id !== undefined) return yield* usableLink(platform, id)
    const store = yield* Store
    const all = yield* store.findBy(StablecoinProviderAccounts, platform.id, "provider", "BRALE")
    for (const link of all) yield* runDueStepsOf(platform.id, link.id)
    const links = yield* store.findBy(StablecoinProviderAccounts, platform.id, "provider", "BRALE")
    const active = links.filter((l) => l.status === "ACTIVE")
    if (active.length === 1) return active[0]!
    if (active.length > 1)
      return yield* Effect.fail(
        new StablecoinProviderAccountSelectionRequired({
          message: `${active.length} active stablecoin provider account links exist; pass stablecoinProviderAccountId to select one`,
          details: { stablecoinProviderAccountIds: active.map((l) => l.id) }
        })
      )
    const newest = [...links].sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0))[0]
    if (newest !== undefined) return yield* Effect.fail(unusable(newest))
    return yield* Effect.fail(
      new StablecoinProviderAccountNotFound({
        message: "No stablecoin provider account is linked: link one with POST /stablecoin-provider-accounts",
        details: { provider: "BRALE" }
      })
    )
  })
