import { Clock, Effect, Option, Schema } from "effect"
import { BeneficialOwners, Customers, Documents, Verifications } from "../../domain/collections.ts"
import { NonEmpty, optional } from "../../domain/common.ts"
import type { CustomerRecord } from "../../domain/customers/customer.ts"
import { UserNotFound } from "../../domain/errors.ts"
import { decodeInput } from "../../domain/field-errors.ts"
import { isId, makeId } from "../../domain/ids.ts"
import { referenceNotFound } from "../../domain/not-found.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { type VerificationRecord, VerificationStatus } from "../../domain/verifications/verification.ts"
import { type Onboarding, verificationStep } from "../../machines/verification.ts"
import { Ids } from "../../ports/ids.ts"
import { Store } from "../../ports/store.ts"
import { equal, listPage, pageParams } from "../common/listing.ts"
import { commitStep } from "../common/step.ts"

/** The reference's 404 for a customer id that names no active customer of the platform. */
export const customerNotFound = (id: string) => new UserNotFound({ message: `Customer ${id} not found`, details: { customerId: id } })

/** An active customer of the platform; a malformed or deleted one is not found (DECISIONS #3). */
export const findActiveCustomer = (platform: PlatformRecord, id: string) =>
  Effect.gen(function* () {
    if (!isId("Customer", id)) return yield* Effect.fail(customerNotFound(id))
    const found = yield* (yield* Store).get(Customers, platform.id, id)
    if (Option.isNone(found) || found.value.isDeleted) return yield* Effect.fail(customerNotFound(id))
    return found.value as CustomerRecord
  })

/** What a verification step reads: the customer, every document of it and its owners, its owners. */
export const loadOnboarding = (platform: PlatformRecord, customerId: string) =>
  Effect.gen(function* () {
    const store = yield* Store
    const customer = yield* findActiveCustomer(platform, customerId)
    const documents = yield* store.findBy(Documents, platform.id, "customerId", customer.id)
    const owners = yield* store.findBy(BeneficialOwners, platform.id, "customerId", customer.id)
    const state: Onboarding = { customer, documents, owners }
    return state
  })

/** Writes what a step changed (the machine hands unchanged records back as the same objects) and the new verification. */
export const saveOnboarding = (platform: PlatformRecord, before: Onboarding) => (after: Onboarding) =>
  Effect.gen(function* () {
    const store = yield* Store
    if (after.customer !== before.customer) yield* store.put(Customers, platform.id, after.customer)
    for (const [i, o] of after.owners.entries()) if (o !== before.owners[i]) yield* store.put(BeneficialOwners, platform.id, o)
    for (const [i, d] of after.documents.entries()) if (d !== before.documents[i]) yield* store.put(Documents, platform.id, d)
    if (after.verification !== undefined) yield* store.put(Verifications, platform.id, after.verification)
  })

export const VerificationRequest = Schema.Struct({ customerId: NonEmpty(128) })
const decodeRequest = decodeInput(VerificationRequest)

/** The reference's `Verification`: the record is exactly it. */
export const verificationView = (v: VerificationRecord) => v

/**
 * POST /verifications {customerId}: submits the customer (spec "Sandbox scenarios"). Always a
 * new verification; the customer's status, its owners' and its documents change with it, and
 * the webhooks are published, in one transaction.
 */
export const submitVerification = (platform: PlatformRecord, body: unknown) =>
  Effect.gen(function* () {
    const input = yield* decodeRequest(body)
    return yield* commitStep(
      platform.id,
      Effect.gen(function* () {
        const before = yield* loadOnboarding(platform, input.customerId)
        const verificationId = makeId("Verification", yield* (yield* Ids).uuid)
        const transition = yield* verificationStep(before, { _tag: "Submit", verificationId }, yield* Clock.currentTimeMillis)
        return { transition, save: saveOnboarding(platform, before), view: (s: Onboarding) => verificationView(s.verification!) }
      })
    )
  })

export const getVerification = (platform: PlatformRecord, id: string) =>
  Effect.gen(function* () {
    const found = isId("Verification", id) ? yield* (yield* Store).get(Verifications, platform.id, id) : Option.none()
    if (Option.isNone(found)) return yield* Effect.fail(referenceNotFound("Verification", id))
    return verificationView(found.value)
  })

export const VerificationListQuery = Schema.Struct({
  customerId: optional(Schema.String),
  verificationStatus: optional(VerificationStatus),
  ...pageParams
})

/** GET /verifications: the platform's verifications, oldest first, filtered by customer and status. */
export const listVerifications = (platform: PlatformRecord, query: unknown) =>
  listPage({
    collection: Verifications,
    scope: platform.id,
    querySchema: VerificationListQuery,
    query,
    where: (q) => [equal("customerId", q.customerId), equal("verificationStatus", q.verificationStatus)],
    view: verificationView
  })
