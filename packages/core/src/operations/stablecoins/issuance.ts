import { Clock, Effect, Option, Schema } from "effect"
import { ExternalAccounts, InternalAccounts, StablecoinOperations } from "../../domain/collections.ts"
import { InvalidAmount, InvalidCurrency } from "../../domain/errors.ts"
import type { ExternalAccountRecord } from "../../domain/external-accounts/record.ts"
import { decodeInput, invalidInput } from "../../domain/field-errors.ts"
import { makeId } from "../../domain/ids.ts"
import { referenceNotFound } from "../../domain/not-found.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { OperationFilters, StablecoinBurn, StablecoinMint } from "../../domain/stablecoins/inputs.ts"
import {
  type OperationDestination,
  type OperationSource,
  operationView,
  type StablecoinOperationRecord,
  type StablecoinRecord
} from "../../domain/stablecoins/records.ts"
import { rfc3339 } from "../../domain/time.ts"
import { sha256Hex } from "../../crypto/secrets.ts"
import { sparkAddress } from "../../crypto/ownership/spark.ts"
import { hexToBytes } from "../../crypto/encoding.ts"
import { STABLECOIN_FUNDING_WINDOW_MS } from "../../limits.ts"
import { ledgerPlan } from "../../machines/stablecoin-operation.ts"
import { Ids } from "../../ports/ids.ts"
import { Store } from "../../ports/store.ts"
import { tokenLedgerCurrency, depositInstructions, operationOutcome, operationPlan, payoutTiming, wireInstructions } from "../../sandbox/stablecoins.ts"
import { equal, listPage, pageParams } from "../common/listing.ts"
import { balanceOf } from "../ledger/ledger.ts"
import { worldAccount } from "../../domain/ledger/ledger.ts"
import { runDueStepsOf } from "../transactions/due-runner.ts"
import { keyedCreate } from "./keyed.ts"
import { usableLink } from "./provider-accounts.ts"
import { loadStablecoin } from "./stablecoins.ts"
import { runOperationSteps } from "./steps.ts"

const decodeMint = decodeInput(StablecoinMint)
const decodeBurn = decodeInput(StablecoinBurn)

/** The amount in whole cents of the base currency: it must convert exactly (400 INVALID_AMOUNT otherwise). */
const centsOf = (coin: StablecoinRecord, amount: string) =>
  Effect.gen(function* () {
    const unit = 10n ** BigInt(Math.max(coin.decimals - 2, 0))
    const tokens = BigInt(amount)
    if (tokens % unit !== 0n)
      return yield* Effect.fail(
        new InvalidAmount({
          message: `${amount} is not a whole number of cents: with ${coin.decimals} decimals, amounts are multiples of ${unit}`,
          details: { reason: "NOT_WHOLE_CENTS", amount, decimals: coin.decimals, multipleOf: unit.toString() }
        })
      )
    return tokens / unit
  })

const externalAccount = (platform: PlatformRecord, id: string) =>
  Effect.gen(function* () {
    const found = yield* (yield* Store).get(ExternalAccounts, platform.id, id)
    return Option.isSome(found) ? found.value : yield* Effect.fail(referenceNotFound("ExternalAccount", id))
  })

const internalAccount = (platform: PlatformRecord, id: string) =>
  Effect.gen(function* () {
    const found = yield* (yield* Store).get(InternalAccounts, platform.id, id)
    return Option.isSome(found) ? found.value : yield* Effect.fail(referenceNotFound("InternalAccount", id))
  })

/** An ACTIVE bank account in the stablecoin's base currency: where fiat is debited from or paid to. */
const bankAccount = (platform: PlatformRecord, coin: StablecoinRecord, id: string, field: string) =>
  Effect.gen(function* () {
    const a = yield* externalAccount(platform, id)
    if (a.status !== "ACTIVE" || a.currency !== coin.baseCurrency || !a.accountInfo.accountType.endsWith("_ACCOUNT"))
      return yield* Effect.fail(invalidInput([{ field, message: `must be an ACTIVE ${coin.baseCurrency} bank account (it is ${a.status}, ${a.currency}, ${a.accountInfo.accountType})` }]))
    return a
  })

/** Grid-managed accounts hold a stablecoin only once it is enabled for Grid operations (DECISIONS #363). */
const notEnabled = (coin: StablecoinRecord, field: string) =>
  invalidInput([{ field, message: `an internal account cannot hold ${coin.symbol}: the stablecoin is ${coin.gridOperationsStatus} for Grid operations` }])

const sparkWallet = (platform: PlatformRecord, coin: StablecoinRecord, id: string) =>
  Effect.gen(function* () {
    if (id.startsWith("InternalAccount:")) {
      yield* internalAccount(platform, id)
      return yield* Effect.fail(notEnabled(coin, "destination.accountId"))
    }
    const a: ExternalAccountRecord = yield* externalAccount(platform, id)
    if (a.status !== "ACTIVE" || a.accountInfo.accountType !== "SPARK_WALLET")
      return yield* Effect.fail(invalidInput([{ field: "destination.accountId", message: `must be an ACTIVE Spark wallet (it is ${a.status}, ${a.accountInfo.accountType})` }]))
    return a
  })

interface Resolved {
  readonly source: OperationSource
  readonly destination: OperationDestination
  readonly fiatAccount: string
  readonly holdFiatSource: boolean
  readonly awaitFunding: boolean
  readonly fundingInstructions?: (operationId: string) => Readonly<Record<string, unknown>>
  readonly estimatedDelivery?: StablecoinOperationRecord["estimatedDelivery"]
}

/**
 * Creates a mint or burn through the stablecoin's link (400 _REVOKED / _INVALID when it is no
 * longer ACTIVE) and starts its sandbox plan (DECISIONS #357–#362): the answer is the operation
 * after its submission, PENDING_FUNDING or PENDING_PROVIDER, with the hold it takes.
 */
const createOperation = (
  platform: PlatformRecord,
  stablecoinId: string,
  type: "MINT" | "BURN",
  amount: string,
  description: string | undefined,
  resolve: (coin: StablecoinRecord, cents: bigint, linkId: string) => Effect.Effect<Resolved, unknown, any>
) =>
  Effect.gen(function* () {
    const coin = yield* loadStablecoin(platform, stablecoinId)
    const link = yield* usableLink(platform, coin.stablecoinProviderAccountId)
    const cents = yield* centsOf(coin, amount)
    const r = yield* resolve(coin, cents, link.id)
    const outcome = operationOutcome(cents)
    const nowMs = yield* Clock.currentTimeMillis
    const now = rfc3339(nowMs)
    const id = makeId("StablecoinOperation", yield* (yield* Ids).uuid)
    const reserveAvailable = type === "BURN" ? (yield* balanceOf(platform.id, `${coin.id}:reserve`)).available : undefined
    const created: StablecoinOperationRecord = {
      id,
      stablecoinId: coin.id,
      operationType: type,
      status: "CREATED",
      amount,
      provider: coin.provider,
      providerEnvironment: coin.providerEnvironment,
      stablecoinProviderAccountId: link.id,
      source: r.source,
      ...(r.fundingInstructions === undefined ? {} : { fundingInstructions: r.fundingInstructions(id) }),
      destination: r.destination,
      ...(r.estimatedDelivery === undefined ? {} : { estimatedDelivery: r.estimatedDelivery }),
      ...(r.awaitFunding ? { expiresAt: rfc3339(nowMs + STABLECOIN_FUNDING_WINDOW_MS) } : {}),
      ...(description === undefined ? {} : { description }),
      ledger: ledgerPlan({
        type,
        stablecoinId: coin.id,
        tokenCurrency: tokenLedgerCurrency(coin.symbol),
        tokens: Number(amount),
        fiatCurrency: coin.baseCurrency,
        fiat: Number(cents),
        fiatAccount: r.fiatAccount,
        holdFiatSource: r.holdFiatSource
      }),
      createdAt: now,
      updatedAt: now
    }
    return operationView(yield* runOperationSteps(platform.id, created, operationPlan(r.awaitFunding, outcome, reserveAvailable), nowMs))
  })

/** POST /stablecoins/{id}/mints: fiat from the funding source into the reserve, tokens to a Spark wallet. */
export const createMint = (platform: PlatformRecord, stablecoinId: string, body: unknown, idempotencyKey?: string) =>
  keyedCreate(platform, idempotencyKey, `/stablecoins/${stablecoinId}/mints`, body, decodeMint, (input) =>
    createOperation(platform, stablecoinId, "MINT", input.amount, input.description, (coin, cents, linkId) =>
      Effect.gen(function* () {
        const f = input.fundingSource
        const wallet = yield* sparkWallet(platform, coin, input.destination.accountId)
        const destination = { accountId: wallet.id }
        switch (f.type) {
          case "WIRE":
            return {
              source: { type: f.type },
              destination,
              fiatAccount: worldAccount("external", coin.baseCurrency),
              holdFiatSource: false,
              awaitFunding: true,
              fundingInstructions: (id: string) => wireInstructions(id, cents, coin.baseCurrency)
            }
          case "ACH_DEBIT":
          case "SAME_DAY_ACH_DEBIT": {
            const bank = yield* bankAccount(platform, coin, f.externalAccountId, "fundingSource.externalAccountId")
            return { source: { type: f.type, externalAccountId: bank.id }, destination, fiatAccount: bank.id, holdFiatSource: false, awaitFunding: false }
          }
          case "GRID_INTERNAL_ACCOUNT": {
            const account = yield* internalAccount(platform, f.accountId)
            const currency = account.balance.currency.code
            if (currency !== coin.baseCurrency)
              return yield* Effect.fail(
                new InvalidCurrency({
                  message: `Internal account ${account.id} holds ${currency}; ${coin.symbol} is minted against ${coin.baseCurrency}`,
                  details: { accountId: account.id, currency, baseCurrency: coin.baseCurrency }
                })
              )
            return { source: { type: f.type, accountId: account.id }, destination, fiatAccount: account.id, holdFiatSource: true, awaitFunding: false }
          }
          case "PROVIDER_INTERNAL_BALANCE":
            return {
              source: { type: f.type, sourceTokenIdentifier: f.sourceTokenIdentifier, cryptoNetwork: f.cryptoNetwork },
              destination,
              fiatAccount: `${linkId}:balance:${f.sourceTokenIdentifier}`,
              holdFiatSource: false,
              awaitFunding: false
            }
        }
      })
    )
  )

/** POST /stablecoins/{id}/burns: tokens back to the provider, the reserve paid out to a bank account. */
export const createBurn = (platform: PlatformRecord, stablecoinId: string, body: unknown, idempotencyKey?: string) =>
  keyedCreate(platform, idempotencyKey, `/stablecoins/${stablecoinId}/burns`, body, decodeBurn, (input) =>
    createOperation(platform, stablecoinId, "BURN", input.amount, input.description, (coin, cents) =>
      Effect.gen(function* () {
        const s = input.source
        if (s.type === "GRID_INTERNAL_ACCOUNT") {
          yield* internalAccount(platform, s.accountId)
          return yield* Effect.fail(notEnabled(coin, "source.accountId"))
        }
        const bank = yield* bankAccount(platform, coin, input.destination.externalAccountId, "destination.externalAccountId")
        const rail = input.destination.rail
        const common = {
          destination: { accountId: bank.id, rail },
          fiatAccount: bank.id,
          holdFiatSource: false,
          estimatedDelivery: { rail, amount: cents.toString(), currency: coin.baseCurrency, timing: payoutTiming[rail]! }
        }
        if (s.type === "PROVIDER_INTERNAL_BALANCE") return { ...common, source: { type: s.type }, awaitFunding: false }
        return {
          ...common,
          source: { type: s.type },
          awaitFunding: true,
          // The provider's deposit address for this operation, a Spark address derived from its id.
          fundingInstructions: (id: string) => depositInstructions(sparkAddress(hexToBytes(`02${sha256Hex(`stablecoin-deposit:${id}`)}`)!), coin.symbol)
        }
      })
    )
  )

/** GET /stablecoin-operations/{id}: where the operation stands on the engine's clock (its due steps applied first). */
export const getOperation = (platform: PlatformRecord, id: string) =>
  Effect.gen(function* () {
    yield* runDueStepsOf(platform.id, id)
    const found = yield* (yield* Store).get(StablecoinOperations, platform.id, id)
    return Option.isSome(found) ? operationView(found.value) : yield* Effect.fail(referenceNotFound("StablecoinOperation", id))
  })

export const OperationListQuery = Schema.Struct({ ...OperationFilters, ...pageParams })

/** GET /stablecoins/{id}/operations: the stablecoin's mints and burns, most recent first, by type. */
export const listOperations = (platform: PlatformRecord, stablecoinId: string, query: unknown) =>
  Effect.gen(function* () {
    const coin = yield* loadStablecoin(platform, stablecoinId)
    return yield* listPage({
      collection: StablecoinOperations,
      scope: platform.id,
      querySchema: OperationListQuery,
      query,
      where: (q) => [q.operationType === undefined ? equal("stablecoin", coin.id) : equal("stablecoinType", `${coin.id}|${q.operationType}`)],
      view: operationView,
      descending: () => true
    })
  })
