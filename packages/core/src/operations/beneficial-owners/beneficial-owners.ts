import { Clock, Effect, Option, Schema } from "effect"
import { BeneficialOwners } from "../../domain/collections.ts"
import type { BeneficialOwnerRecord } from "../../domain/beneficial-owners/beneficial-owner.ts"
import { BeneficialOwnerCreate, beneficialOwnerView, BeneficialOwnerUpdate } from "../../domain/beneficial-owners/inputs.ts"
import { decodeInput, invalidInput } from "../../domain/field-errors.ts"
import { isId, makeId } from "../../domain/ids.ts"
import { referenceNotFound } from "../../domain/not-found.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { rfc3339 } from "../../domain/time.ts"
import { resolveOwners } from "../../machines/verification.ts"
import { Ids } from "../../ports/ids.ts"
import { Store } from "../../ports/store.ts"
import { isTerminal } from "../../sandbox/kyc.ts"
import { equal, listPage, pageParams } from "../common/listing.ts"
import { findActiveCustomer } from "../verifications/verifications.ts"

const decodeCreate = decodeInput(BeneficialOwnerCreate)
const decodeUpdate = decodeInput(BeneficialOwnerUpdate)

/**
 * POST /beneficial-owners: an owner of a BUSINESS customer (an individual customer is 400 on
 * `customerId`, DECISIONS #140). UNVERIFIED until the business resolves terminally; an owner
 * added after that is resolved at once by its lastName, as its siblings were.
 */
export const createBeneficialOwner = (platform: PlatformRecord, body: unknown) =>
  Effect.gen(function* () {
    const input = yield* decodeCreate(body)
    const store = yield* Store
    return yield* store.transaction(
      Effect.gen(function* () {
        const customer = yield* findActiveCustomer(platform, input.customerId)
        if (customer.customerType !== "BUSINESS")
          return yield* Effect.fail(invalidInput([{ field: "customerId", message: "must be a BUSINESS customer: individuals have no beneficial owners" }]))
        const now = rfc3339(yield* Clock.currentTimeMillis)
        const created: BeneficialOwnerRecord = {
          id: makeId("BeneficialOwner", yield* (yield* Ids).uuid),
          customerId: customer.id as BeneficialOwnerRecord["customerId"],
          roles: input.roles,
          ownershipPercentage: input.ownershipPercentage,
          personalInfo: input.personalInfo,
          kycStatus: "UNVERIFIED",
          createdAt: now,
          updatedAt: now
        }
        const owner = isTerminal(customer.kybStatus) ? resolveOwners([created], now)[0]! : created
        yield* store.put(BeneficialOwners, platform.id, owner)
        return beneficialOwnerView(owner)
      })
    )
  })

const findOwner = (platform: PlatformRecord, id: string) =>
  Effect.gen(function* () {
    const found = isId("BeneficialOwner", id) ? yield* (yield* Store).get(BeneficialOwners, platform.id, id) : Option.none()
    if (Option.isNone(found)) return yield* Effect.fail(referenceNotFound("BeneficialOwner", id))
    return found.value
  })

export const getBeneficialOwner = (platform: PlatformRecord, id: string) => Effect.map(findOwner(platform, id), beneficialOwnerView)

/** PATCH /beneficial-owners/{id}: only the given fields change; `personalInfo` merges field by field. */
export const updateBeneficialOwner = (platform: PlatformRecord, id: string, body: unknown) =>
  Effect.gen(function* () {
    const input = yield* decodeUpdate(body)
    const store = yield* Store
    return yield* store.transaction(
      Effect.gen(function* () {
        const current = yield* findOwner(platform, id)
        const updated: BeneficialOwnerRecord = {
          ...current,
          ...(input.roles === undefined ? {} : { roles: input.roles }),
          ...(input.ownershipPercentage === undefined ? {} : { ownershipPercentage: input.ownershipPercentage }),
          personalInfo: { ...current.personalInfo, ...input.personalInfo },
          updatedAt: rfc3339(yield* Clock.currentTimeMillis)
        }
        yield* store.put(BeneficialOwners, platform.id, updated)
        return beneficialOwnerView(updated)
      })
    )
  })

export const BeneficialOwnerListQuery = Schema.Struct({ customerId: Schema.String, ...pageParams })

/** GET /beneficial-owners?customerId=: a business's owners, oldest first (an unknown customer has none). */
export const listBeneficialOwners = (platform: PlatformRecord, query: unknown) =>
  listPage({
    collection: BeneficialOwners,
    scope: platform.id,
    querySchema: BeneficialOwnerListQuery,
    query,
    where: (q) => [equal("customerId", q.customerId)],
    view: beneficialOwnerView
  })
