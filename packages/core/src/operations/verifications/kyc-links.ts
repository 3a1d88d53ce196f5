import { Clock, Effect, Option, Schema } from "effect"
import { KycLinks } from "../../domain/collections.ts"
import { optional } from "../../domain/common.ts"
import { unverifiedChannels } from "../../domain/customers/contact-verification.ts"
import { Conflict, InvalidInput, ReferenceNotFound } from "../../domain/errors.ts"
import { decodeInput } from "../../domain/field-errors.ts"
import { makeId } from "../../domain/ids.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { rfc3339 } from "../../domain/time.ts"
import { type KycLinkRecord, kycLinkView } from "../../domain/verifications/verification.ts"
import { KYC_LINK_LIFETIME_MS } from "../../limits.ts"
import { type Onboarding, verificationStep } from "../../machines/verification.ts"
import { Ids } from "../../ports/ids.ts"
import { Store } from "../../ports/store.ts"
import { KYC_LINK_BASE, KYC_LINK_PROVIDER } from "../../sandbox/literals.ts"
import { commitStep } from "../common/step.ts"
import { findActiveCustomer, loadOnboarding, saveOnboarding, verificationView } from "./verifications.ts"

const RedirectUri = Schema.String.pipe(
  Schema.maxLength(2048),
  Schema.filter((s) => /^https?:\/\/[^\s/?#]+[^\s]*$/.test(s), { message: () => "must be an https:// (or http://) URI" })
)
export const KycLinkCreateRequest = Schema.Struct({ redirectUri: optional(RedirectUri) })
const decodeCreate = decodeInput(KycLinkCreateRequest)

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")

/**
 * POST /customers/{customerId}/kyc-link: a fresh single-use hosted link; the customer's status
 * does not change until the flow completes (reference). Earlier links stay valid until used or
 * expired. `Idempotency-Key` is not honoured (DECISIONS #142): each call answers a fresh link.
 */
export const createKycLink = (platform: PlatformRecord, customerId: string, body: unknown) =>
  Effect.gen(function* () {
    const input = yield* decodeCreate(body ?? {})
    const store = yield* Store
    return yield* store.transaction(
      Effect.gen(function* () {
        const customer = yield* findActiveCustomer(platform, customerId)
        // Reference: a customer whose provider requires contact verification gets its link only
        // once email and phone are both VERIFIED (409 until then; DECISIONS #165).
        const unverified = unverifiedChannels(customer.contactVerification)
        if (unverified.length > 0)
          return yield* new Conflict({
            message: `Customer ${customer.id} must verify its ${unverified.join(" and ")} before a KYC link (POST /customers/{customerId}/verify-${unverified[0]})`,
            details: { customerId: customer.id, reason: "CONTACT_VERIFICATION_REQUIRED", unverified }
          })
        const token = hex(yield* (yield* Ids).bytes(16))
        const nowMs = yield* Clock.currentTimeMillis
        const now = rfc3339(nowMs)
        const redirect = input.redirectUri === undefined ? "" : `?redirectUri=${encodeURIComponent(input.redirectUri)}`
        const link: KycLinkRecord = {
          id: token,
          customerId: customer.id as KycLinkRecord["customerId"],
          kycUrl: `${KYC_LINK_BASE}/${token}${redirect}`,
          ...(input.redirectUri === undefined ? {} : { redirectUri: input.redirectUri }),
          expiresAt: rfc3339(nowMs + KYC_LINK_LIFETIME_MS),
          createdAt: now,
          updatedAt: now
        }
        yield* store.put(KycLinks, platform.id, link)
        return kycLinkView(link, KYC_LINK_PROVIDER)
      })
    )
  })

export const KycLinkCompletion = Schema.Struct({ outcome: Schema.Literal("APPROVED", "REJECTED", "PENDING") })
const decodeCompletion = decodeInput(KycLinkCompletion)

const linkNotFound = (token: string) =>
  new ReferenceNotFound({ message: `KYC link ${token} not found`, details: { resource: "KycLink", id: token } })

/**
 * Sandbox (DECISIONS #143): the customer completes the hosted flow behind a link with the
 * chosen outcome. The same transition as a submission's: the customer's status, its owners'
 * (a business resolved terminally), a new verification, and the same webhooks. A used link is
 * 409; an expired one 400.
 */
export const completeKycLink = (platform: PlatformRecord, token: string, body: unknown) =>
  Effect.gen(function* () {
    const input = yield* decodeCompletion(body)
    return yield* commitStep(
      platform.id,
      Effect.gen(function* () {
        const store = yield* Store
        const found = yield* store.get(KycLinks, platform.id, token)
        if (Option.isNone(found)) return yield* Effect.fail(linkNotFound(token))
        const link = found.value
        const nowMs = yield* Clock.currentTimeMillis
        if (link.usedAt !== undefined)
          return yield* Effect.fail(new Conflict({ message: `KYC link ${token} was already used`, details: { token, usedAt: link.usedAt } }))
        if (Date.parse(link.expiresAt) <= nowMs)
          return yield* Effect.fail(new InvalidInput({ message: `KYC link ${token} expired at ${link.expiresAt}`, details: { token, expiresAt: link.expiresAt } }))
        const before = yield* loadOnboarding(platform, link.customerId)
        const verificationId = makeId("Verification", yield* (yield* Ids).uuid)
        const transition = yield* verificationStep(before, { _tag: "CompleteHostedFlow", verificationId, outcome: input.outcome }, nowMs)
        const save = saveOnboarding(platform, before)
        return {
          transition,
          save: (after: Onboarding) =>
            Effect.zipRight(save(after), store.put(KycLinks, platform.id, { ...link, usedAt: rfc3339(nowMs), updatedAt: rfc3339(nowMs) })),
          view: (s: Onboarding) => verificationView(s.verification!)
        }
      })
    )
  })
