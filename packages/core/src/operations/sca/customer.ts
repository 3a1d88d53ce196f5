import { Clock, Effect, Either, Option, Schema } from "effect"
import { Customers, ScaProfiles } from "../../domain/collections.ts"
import { Conflict, ScaSessionRequired } from "../../domain/errors.ts"
import { decodeInput, type FieldError, invalidInput, isJsonObject } from "../../domain/field-errors.ts"
import { makeId } from "../../domain/ids.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { emptyProfile, type ScaChallenge, type ScaFactor, type ScaProfileRecord } from "../../domain/sca/records.ts"
import { sessionActive } from "../../machines/sca-session.ts"
import { Ids } from "../../ports/ids.ts"
import { Store } from "../../ports/store.ts"
import { scaApplies } from "../../sandbox/sca.ts"
import { loadCustomer } from "../customers/customers.ts"

/** Every SCA endpoint names its customer in the query (`?customerId=`). */
export const ScaCustomerQuery = Schema.Struct({ customerId: Schema.String })

const errorsOf = (e: Either.Either<unknown, { readonly details?: Record<string, unknown> | undefined }>): ReadonlyArray<FieldError> =>
  Either.isLeft(e) ? ((e.left.details?.["errors"] as ReadonlyArray<FieldError> | undefined) ?? []) : []

/**
 * Decodes the query and (when the endpoint has one) the body together, so a 400 lists every
 * invalid field of both.
 */
export const decodeQueryAndBody = <B, I>(query: unknown, body: unknown, bodySchema?: Schema.Schema<B, I>, bodyRequired = true) =>
  Effect.gen(function* () {
    const q = decodeInput(ScaCustomerQuery)(isJsonObject(query) ? query : {})
    const bodyMissing = body === undefined || body === null
    const b: Either.Either<B | undefined, { readonly details?: Record<string, unknown> | undefined }> =
      bodySchema === undefined || (bodyMissing && !bodyRequired)
        ? Either.right(undefined)
        : isJsonObject(body)
          ? decodeInput(bodySchema)(body)
          : Either.left({ details: { errors: [{ field: "body", message: "must be a JSON object" }] } })
    const errors = [...errorsOf(q), ...errorsOf(b)]
    if (errors.length > 0 || Either.isLeft(q) || Either.isLeft(b)) return yield* invalidInput(errors)
    return { customerId: q.right.customerId, body: b.right as B }
  })

export const scaNotRequired = () =>
  new Conflict({ message: "Strong customer authentication applies only to customers in SCA-regulated regions (EU/EEA)", details: { reason: "SCA_NOT_REQUIRED" } })

/** The customer an SCA call is about: 404 USER_NOT_FOUND for no one, 409 outside SCA regions (#220). */
export const loadScaCustomer = (platform: PlatformRecord, customerId: string) =>
  Effect.gen(function* () {
    const customer = yield* loadCustomer(platform, customerId)
    if (!scaApplies(customer)) return yield* scaNotRequired()
    return customer
  })

/** Whether SCA applies to a customer id (absent, unknown or outside SCA regions: no). */
export const scaAppliesTo = (platform: PlatformRecord, customerId: string | undefined) =>
  Effect.gen(function* () {
    if (customerId === undefined) return false
    const found = yield* (yield* Store).get(Customers, platform.id, customerId)
    return Option.isSome(found) && scaApplies(found.value)
  })

/** The customer's SCA record, or a fresh one (written on its first change). */
export const loadProfile = (platform: PlatformRecord, customerId: string) =>
  Effect.map(Effect.flatMap(Store, (s) => s.get(ScaProfiles, platform.id, customerId)), (found) => Option.getOrElse(found, () => emptyProfile(customerId)))

export const saveProfile = (platform: PlatformRecord) => (profile: ScaProfileRecord) => Effect.flatMap(Store, (s) => s.put(ScaProfiles, platform.id, profile))

export const sessionRequired = () =>
  new ScaSessionRequired({
    message: "The customer's SCA session is missing or expired: complete an SCA login (POST /sca/login/start and /complete), then retry",
    details: { reason: "SCA_SESSION_REQUIRED" }
  })

/** 409 SCA_SESSION_REQUIRED unless the customer has an SCA session open now (DECISIONS #226). */
export const requireSession = (platform: PlatformRecord, customerId: string) =>
  Effect.gen(function* () {
    const profile = yield* loadProfile(platform, customerId)
    if (!sessionActive(profile, yield* Clock.currentTimeMillis)) return yield* sessionRequired()
    return profile
  })

/** A fresh challenge for `factor`; a PASSKEY one carries the random string its assertion signs. */
export const newChallenge = (args: {
  readonly factor: ScaFactor
  readonly availableFactors: ReadonlyArray<ScaFactor>
  readonly purpose?: string
  readonly now: number
  readonly expiresAtMs: number
}) =>
  Effect.gen(function* () {
    const ids = yield* Ids
    const id = makeId("ScaChallenge", yield* ids.uuid)
    const passkeyChallenge = args.factor === "PASSKEY" ? Buffer.from(yield* ids.bytes(32)).toString("hex") : undefined
    const challenge: ScaChallenge = {
      id,
      factor: args.factor,
      availableFactors: args.availableFactors,
      ...(args.purpose === undefined ? {} : { purpose: args.purpose }),
      expiresAtMs: args.expiresAtMs,
      sentAtMs: args.now,
      failedAttempts: 0,
      ...(passkeyChallenge === undefined ? {} : { passkeyChallenge })
    }
    return challenge
  })
