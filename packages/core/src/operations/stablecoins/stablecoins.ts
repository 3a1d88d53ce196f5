import { Clock, Effect, Option, Schema } from "effect"
import { Stablecoins } from "../../domain/collections.ts"
import { Conflict } from "../../domain/errors.ts"
import { decodeInput } from "../../domain/field-errors.ts"
import { makeId } from "../../domain/ids.ts"
import { referenceNotFound } from "../../domain/not-found.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { StablecoinFilters, StablecoinRegister } from "../../domain/stablecoins/inputs.ts"
import { type StablecoinRecord, stablecoinView } from "../../domain/stablecoins/records.ts"
import { rfc3339 } from "../../domain/time.ts"
import { Ids } from "../../ports/ids.ts"
import { Store } from "../../ports/store.ts"
import { SANDBOX_STABLECOIN_BASE_CURRENCY, SANDBOX_STABLECOIN_DECIMALS, stablecoinName } from "../../sandbox/stablecoins.ts"
import { equal, listPage, pageParams } from "../common/listing.ts"
import { keyedCreate } from "./keyed.ts"
import { selectProviderAccount } from "./provider-accounts.ts"

const decodeRegister = decodeInput(StablecoinRegister)

/**
 * POST /stablecoins (DECISIONS #354–#356): registers a token the provider already issued, through
 * the selected provider account link. The sandbox provider knows every token it is asked about:
 * the stablecoin is PROVISIONED, backed by US dollars with 6 decimals, and NOT_ENABLED for Grid
 * operations. A token registered already (by either identifier) is 409 CONFLICT.
 */
export const registerStablecoin = (platform: PlatformRecord, body: unknown, idempotencyKey?: string) =>
  keyedCreate(platform, idempotencyKey, "/stablecoins", body, decodeRegister, (input) =>
    Effect.gen(function* () {
      const link = yield* selectProviderAccount(platform, input.stablecoinProviderAccountId)
      const store = yield* Store
      const now = rfc3339(yield* Clock.currentTimeMillis)
      const symbol = input.providerTokenIdentifier.toUpperCase()
      const coin: StablecoinRecord = {
        id: makeId("Stablecoin", yield* (yield* Ids).uuid),
        name: stablecoinName(symbol),
        symbol,
        baseCurrency: SANDBOX_STABLECOIN_BASE_CURRENCY,
        network: input.network,
        decimals: SANDBOX_STABLECOIN_DECIMALS,
        issuanceStatus: "PROVISIONED",
        gridOperationsStatus: "NOT_ENABLED",
        networkTokenIdentifier: input.networkTokenIdentifier,
        provider: link.provider,
        stablecoinProviderAccountId: link.id,
        providerEnvironment: link.providerEnvironment,
        providerTokenIdentifier: input.providerTokenIdentifier,
        createdAt: now,
        updatedAt: now
      }
      yield* store.put(Stablecoins, platform.id, coin).pipe(
        Effect.catchTag("UniqueViolation", (v) =>
          Effect.fail(
            new Conflict({
              message:
                v.index === "providerToken"
                  ? `Token ${input.providerTokenIdentifier} is already registered as stablecoin ${v.existingId}`
                  : `Network token ${input.networkTokenIdentifier} is already registered as stablecoin ${v.existingId}`,
              details: { stablecoinId: v.existingId, field: v.index === "providerToken" ? "providerTokenIdentifier" : "networkTokenIdentifier" }
            })
          )
        )
      )
      return stablecoinView(coin)
    })
  )

/** A stablecoin of the platform, or 404 REFERENCE_NOT_FOUND (the reference names no code for it). */
export const loadStablecoin = (platform: PlatformRecord, id: string) =>
  Effect.gen(function* () {
    const found = yield* (yield* Store).get(Stablecoins, platform.id, id)
    return Option.isSome(found) ? found.value : yield* Effect.fail(referenceNotFound("Stablecoin", id))
  })

export const getStablecoin = (platform: PlatformRecord, id: string) => Effect.map(loadStablecoin(platform, id), stablecoinView)

export const StablecoinListQuery = Schema.Struct({ ...StablecoinFilters, ...pageParams })

/** GET /stablecoins: the platform's stablecoins in the order they were registered, by the reference's filters. */
export const listStablecoins = (platform: PlatformRecord, query: unknown) =>
  listPage({
    collection: Stablecoins,
    scope: platform.id,
    querySchema: StablecoinListQuery,
    query,
    where: (q) => [equal("issuanceStatus", q.issuanceStatus), equal("gridOperationsStatus", q.gridOperationsStatus), equal("provider", q.provider)],
    view: stablecoinView
  })
