import { Clock, Effect, Option, Schema } from "effect"
import { Verifications } from "../../domain/collections.ts"
import { NonEmpty, optional } from "../../domain/common.ts"
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
import { loadOnboarding, saveOnboarding } from "./onboarding.ts"

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
