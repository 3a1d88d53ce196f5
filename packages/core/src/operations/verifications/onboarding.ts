import { Effect, Option } from "effect"
import { BeneficialOwners, Customers, Documents, Verifications } from "../../domain/collections.ts"
import type { CustomerRecord } from "../../domain/customers/customer.ts"
import { UserNotFound } from "../../domain/errors.ts"
import { isId } from "../../domain/ids.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import type { Onboarding } from "../../machines/verification.ts"
import { Store } from "../../ports/store.ts"

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
