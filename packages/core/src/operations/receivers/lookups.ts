import { Clock, Effect, Option, Schema } from "effect"
import { Customers, InternalAccounts, ReceiverLookups } from "../../domain/collections.ts"
import { optional } from "../../domain/common.ts"
import { UmaAddress } from "../../domain/customers/customer.ts"
import { InvalidUmaAddress, LookupRequestNotFound, UmaNotFound } from "../../domain/errors.ts"
import { decodeInput } from "../../domain/field-errors.ts"
import { IdSchema, makeId } from "../../domain/ids.ts"
import { rateFor } from "../../domain/money/exchange-rate.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { type LookupReceiver, lookupView, type ReceiverLookupRecord } from "../../domain/receivers/lookup.ts"
import { rfc3339 } from "../../domain/time.ts"
import { Ids } from "../../ports/ids.ts"
import { Store } from "../../ports/store.ts"
import { sandboxUmaReceiver, SANDBOX_UMA_DOMAINS, splitUmaAddress } from "../../sandbox/uma-receivers.ts"
import { customerNotFound, loadCustomer } from "../customers/customers.ts"
import { findExternalAccount } from "../external-accounts/external-accounts.ts"

/**
 * Receiver lookups (DECISIONS #177, #178): who a payment would reach and in which currencies,
 * with estimated rates from the sender's currency. Each answer is stored under its `lookupId`,
 * which a quote to a UMA address names (`findLookup`).
 */
export const LookupQuery = Schema.Struct({
  senderUmaAddress: optional(UmaAddress),
  customerId: optional(IdSchema("Customer"))
})

const isUmaAddress = Schema.is(UmaAddress)

/** The sender's currency: its first internal account's, or the platform's dollars. */
const sender = (platform: PlatformRecord, query: unknown) =>
  Effect.gen(function* () {
    const q = yield* decodeInput(LookupQuery)(query)
    if (q.customerId === undefined) return { sendingCurrency: "USD", ...(q.senderUmaAddress === undefined ? {} : { senderUmaAddress: q.senderUmaAddress }) }
    const customer = yield* loadCustomer(platform, q.customerId)
    if (customer.isDeleted) return yield* Effect.fail(customerNotFound(q.customerId))
    const accounts = yield* (yield* Store).findBy(InternalAccounts, platform.id, "customerId", customer.id)
    return {
      sendingCurrency: accounts[0]?.balance.currency.code ?? "USD",
      senderCustomerId: customer.id,
      ...(q.senderUmaAddress === undefined ? {} : { senderUmaAddress: q.senderUmaAddress })
    }
  })

const traded = (codes: ReadonlyArray<string>) => [...new Set(codes)].filter((c) => rateFor(c, c, 0) !== undefined)

/** A sandbox receiver, or an active customer of this platform holding the address; else 404 UMA_NOT_FOUND. */
const resolveUma = (platform: PlatformRecord, address: string) =>
  Effect.gen(function* () {
    const sandbox = sandboxUmaReceiver(address)
    if (sandbox !== undefined)
      return { receiver: { type: "SANDBOX_UMA", currency: sandbox.currency, outcome: sandbox.outcome } as LookupReceiver, currencies: [sandbox.currency] }
    const store = yield* Store
    const holder = (yield* store.findBy(Customers, platform.id, "umaAddress", address.toLowerCase()))[0]
    if (holder !== undefined) {
      const accounts = yield* store.findBy(InternalAccounts, platform.id, "customerId", holder.id)
      const currencies = traded([...(holder.currencies ?? []), ...accounts.map((a) => a.balance.currency.code)])
      return { receiver: { type: "CUSTOMER", customerId: holder.id } as LookupReceiver, currencies }
    }
    const onSandbox = SANDBOX_UMA_DOMAINS.includes(splitUmaAddress(address)?.domain ?? "")
    return yield* Effect.fail(
      new UmaNotFound({
        message: onSandbox
          ? "No receiver exists at this address: the sandbox domain's receivers are success.usd, success.eur, success.mxn, pending.long.usd and fail.compliance.usd"
          : "No receiver exists at this UMA address",
        details: { receiverUmaAddress: address }
      })
    )
  })

const save = (platform: PlatformRecord, fields: Omit<ReceiverLookupRecord, "id" | "createdAt">) =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const record: ReceiverLookupRecord = { id: makeId("Lookup", yield* (yield* Ids).uuid), ...fields, createdAt: rfc3339(now) }
    yield* (yield* Store).put(ReceiverLookups, platform.id, record)
    return lookupView(record, now)
  })

/** `GET /receiver/uma/{receiverUmaAddress}`. */
export const lookupUma = (platform: PlatformRecord, address: string, query: unknown) =>
  Effect.gen(function* () {
    if (!isUmaAddress(address))
      return yield* Effect.fail(
        new InvalidUmaAddress({
          message: "receiverUmaAddress must be a UMA address such as $alice@example.com",
          details: { errors: [{ field: "receiverUmaAddress", message: "must be a UMA address such as $alice@example.com" }] }
        })
      )
    const from = yield* sender(platform, query)
    const { receiver, currencies } = yield* resolveUma(platform, address)
    return yield* save(platform, { receiverUmaAddress: address, receiver, ...from, supportedCurrencies: currencies })
  })

/** `GET /receiver/external-account/{accountId}`: any external account of the platform; else 404. */
export const lookupExternalAccount = (platform: PlatformRecord, accountId: string, query: unknown) =>
  Effect.gen(function* () {
    const from = yield* sender(platform, query)
    const account = yield* findExternalAccount(platform, accountId)
    return yield* save(platform, {
      accountId: account.id,
      receiver: { type: "EXTERNAL_ACCOUNT", accountId: account.id },
      ...from,
      supportedCurrencies: traded([account.currency])
    })
  })

/** The lookup a quote names, or 404 LOOKUP_REQUEST_NOT_FOUND (another platform's included). */
export const findLookup = (platformId: string, lookupId: string) =>
  Effect.gen(function* () {
    const found = yield* (yield* Store).get(ReceiverLookups, platformId, lookupId)
    if (Option.isSome(found)) return found.value
    return yield* Effect.fail(new LookupRequestNotFound({ message: `Lookup ${lookupId} not found`, details: { lookupId } }))
  })
