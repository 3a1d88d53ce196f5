import { Clock, Context, Effect, Either, Exit, type Fiber } from "effect"
import { AuthMethods, Customers, InternalAccounts } from "../../domain/collections.ts"
import { type CustomerRecord, type CustomerView, customerView, supportedTermsVersions } from "../../domain/customers/customer.ts"
import { contactVerificationAtCreation } from "../../domain/customers/contact-verification.ts"
import { Conflict, type EndUserTermsVersionNotFound, type InvalidInput, UmaAddressExists } from "../../domain/errors.ts"
import { makeId } from "../../domain/ids.ts"
import { currencies, type InternalAccountRecord, newInternalAccount } from "../../domain/internal-accounts/internal-account.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { rfc3339 } from "../../domain/time.ts"
import { statusAtCreation } from "../../machines/kyc.ts"
import { drawUuid, Ids, type IdsService } from "../../ports/ids.ts"
import { directBusy, type DirectPut, directWrites, Store, type StoreError, type StoreService, UniqueViolation } from "../../ports/store.ts"
import { failOrDie } from "../../ports/transaction-context.ts"
import { termsNotSupported, umaTaken } from "./customers.ts"
import { type CreateBody, createDecoders, decodeVariant } from "./decode.ts"

/** The UMA address given to a customer created without one; `clean` when the id is already a valid local part. */
const generatedUma = (platform: PlatformRecord, platformCustomerId: string, salt: string, clean = false) => {
  const local = clean ? platformCustomerId : platformCustomerId.toLowerCase().replace(/[^a-z0-9._-]/g, "").slice(0, 40) || "customer"
  // One flat string (as `makeId`): the address lives as long as the customer (DECISIONS #452).
  return ["$", local, ".", salt, "@", platform.umaDomain].join("")
}

/**
 * 16 hex digits of the customer's uuid (DECISIONS #487): of a time-ordered uuid, the low 16 bits
 * of its millisecond (so customers made together sort together, as their ids do) and 48 of its
 * random bits; of a seeded v4 uuid, 64 random bits. The UMA address's salt takes 24 other
 * random bits.
 */
export const generatedPlatformCustomerId = (uuid: string) => [uuid.slice(9, 13), uuid.slice(15, 18), uuid.slice(24, 33)].join("")
const umaSalt = (uuid: string) => uuid.slice(20, 23) + uuid.slice(33, 36)

/** The store's UniqueViolation on a new customer as the answer the reference gives for it. */
const creationConflict = (v: UniqueViolation, c: CustomerRecord) =>
  v.index === "umaAddress"
    ? umaTaken(c.umaAddress)
    : new Conflict({
        message: `platformCustomerId ${c.platformCustomerId} is already used by an active customer`,
        details: { platformCustomerId: c.platformCustomerId }
      })

// The three records of a creation, each built when its turn comes (a seeded engine draws the
// same ids in the same order on both paths below, and none after a conflict).

const newCustomer = (platform: PlatformRecord, body: CreateBody, uuid: string, now: string): CustomerRecord => {
  const platformCustomerId = body.platformCustomerId ?? generatedPlatformCustomerId(uuid)
  // A generated id is 16 lowercase hex digits: already a clean local part.
  const umaAddress = body.umaAddress ?? generatedUma(platform, platformCustomerId, umaSalt(uuid), body.platformCustomerId === undefined)
  const status = statusAtCreation(body.customerType, body.customerType === "INDIVIDUAL" ? body.fullName : undefined)
  // The engine's fields first, then the body's: on Node 20, adding keys after a leading spread
  // costs ~0.6 µs each (V8 leaves the fast literal path); spreading last does not. `body` holds
  // none of the engine's own fields except the two computed from it.
  return {
    id: makeId("Customer", uuid),
    platformCustomerId,
    umaAddress,
    createdAt: now,
    updatedAt: now,
    isDeleted: false,
    ...contactVerificationAtCreation(body.region),
    ...status,
    ...body
  } as CustomerRecord
}

/** The customer's Global account. */
const globalAccount = (customer: CustomerRecord, uuid: string, now: string) =>
  newInternalAccount({ id: makeId("InternalAccount", uuid), customerId: customer.id, type: "EMBEDDED_WALLET", currency: currencies["USDB"]!, now })

/** The EMAIL_OTP credential tied to the customer's email. */
const emailCredential = (customer: CustomerRecord, email: string, wallet: InternalAccountRecord, uuid: string, now: string) => ({
  id: makeId("AuthMethod", uuid),
  accountId: wallet.id,
  customerId: customer.id,
  type: "EMAIL_OTP" as const,
  nickname: email,
  email,
  createdAt: now,
  updatedAt: now
})

type CreationError = InvalidInput | EndUserTermsVersionNotFound | Conflict | UmaAddressExists | StoreError

const nowOf = (fiber: Fiber.RuntimeFiber<unknown, unknown>) => rfc3339(Context.get(fiber.currentDefaultServices, Clock.Clock).unsafeCurrentTimeMillis())

/** The creation through the store's Effects: any store. */
const createdThroughEffects = (platform: PlatformRecord, body: CreateBody, store: StoreService, ids: IdsService) =>
  store.transaction(
    Effect.withFiberRuntime<CustomerView, Conflict | UmaAddressExists | StoreError>((inTx) => {
      const now = nowOf(inTx)
      const customer = newCustomer(platform, body, drawUuid(ids), now)
      const created = Exit.succeed(customerView(customer))
      // The store enforces both unique keys (the platformCustomerId one is checked first).
      const putCustomer = Effect.catchTag(store.put(Customers, platform.id, customer), "UniqueViolation", (v) => Effect.fail(creationConflict(v, customer)))
      return Effect.flatMap(putCustomer, () => {
        const wallet = globalAccount(customer, drawUuid(ids), now)
        const putWallet = store.put(InternalAccounts, platform.id, wallet)
        const email = customer.email
        if (email === undefined) return Effect.zipRight(putWallet, created)
        return Effect.flatMap(putWallet, () => Effect.zipRight(store.put(AuthMethods, platform.id, emailCredential(customer, email, wallet, drawUuid(ids), now)), created))
      })
    })
  )

/** The same creation as plain calls, inside a direct transaction (`DirectWrites`). */
const createdDirectly = (fiber: Fiber.RuntimeFiber<unknown, unknown>, platform: PlatformRecord, body: CreateBody, ids: IdsService) => (put: DirectPut) => {
  const now = nowOf(fiber)
  const customer = newCustomer(platform, body, drawUuid(ids), now)
  try {
    put(Customers, platform.id, customer)
  } catch (e) {
    throw e instanceof UniqueViolation ? creationConflict(e, customer) : e
  }
  const wallet = globalAccount(customer, drawUuid(ids), now)
  put(InternalAccounts, platform.id, wallet)
  const email = customer.email
  if (email !== undefined) put(AuthMethods, platform.id, emailCredential(customer, email, wallet, drawUuid(ids), now))
  return customerView(customer)
}

/** What a direct creation threw, as the Effect path would have failed: its 409s, else as any store write (`failOrDie`). */
const thrown = (e: unknown): Effect.Effect<never, CreationError | UniqueViolation> =>
  e instanceof Conflict || e instanceof UmaAddressExists ? Exit.fail(e) : failOrDie(e)

/**
 * POST /customers. One transaction creates the customer, its Global account (an
 * EMBEDDED_WALLET internal account) and, when it has an email, the EMAIL_OTP credential tied
 * to that email: all three or none.
 *
 * Written for as few Effect steps as its semantics allow: a creation is the engine's most
 * frequent write. The body decoded, the services read and the terms checked in one step through
 * the fiber (DECISIONS #533); then, on a store with direct writes (the memory store), the whole
 * transaction as plain calls in that same step (#535), else the store's Effect transaction, a
 * chain of `flatMap`s (not a generator, #451) with the clock read from the fiber's services and
 * the uuids drawn with `unsafeUuid` in steps that are there anyway. Either way the order of
 * effects is: decode, terms, then in the transaction the time, the customer's uuid, its put, the
 * wallet's uuid and put, the credential's uuid and put.
 */
export const createCustomer = (platform: PlatformRecord, input: unknown): Effect.Effect<CustomerView, CreationError, Store | Ids> =>
  Effect.withFiberRuntime((fiber) => {
    const decoded = decodeVariant(createDecoders, input)
    if (Either.isLeft(decoded)) return Effect.fail(decoded.left)
    const body = decoded.right
    const consent = body.endUserTermsConsent
    if (consent !== undefined && !supportedTermsVersions.includes(consent.termsVersion)) return Effect.fail(termsNotSupported(consent.termsVersion))
    const ctx = fiber.currentContext as Context.Context<Store | Ids>
    const store = Context.get(ctx, Store)
    const ids = Context.get(ctx, Ids)
    const direct = directWrites(store)
    if (direct !== undefined) {
      try {
        const view = direct.transaction(fiber, createdDirectly(fiber, platform, body, ids))
        if (view !== directBusy) return Exit.succeed(view)
      } catch (e) {
        return thrown(e) as Effect.Effect<never, CreationError>
      }
    }
    return createdThroughEffects(platform, body, store, ids)
  })
