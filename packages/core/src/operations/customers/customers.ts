import { Clock, Effect, Either, Option } from "effect"
import { AuthMethods, Customers } from "../../domain/collections.ts"
import { type CustomerRecord, customerView, supportedTermsVersions } from "../../domain/customers/customer.ts"
import { resetChangedContacts } from "../../domain/customers/contact-verification.ts"
import {
  CustomerDeleted,
  EmailOtpCredentialSetChanged,
  EmailOtpEmailAlreadyExists,
  EndUserTermsVersionNotFound,
  UmaAddressExists,
  UserNotFound
} from "../../domain/errors.ts"
import { reply } from "../../domain/reply.ts"
import { accountSession } from "../../signed-retry/authorize.ts"
import { activityPayload } from "../../signed-retry/canonical.ts"
import { defineSignedOperation } from "../../signed-retry/registry.ts"
import { boundAccount, type SignedHeaders, signedRetry } from "../../signed-retry/signed-retry.ts"
import type { SignedTarget } from "../../signed-retry/target.ts"
import { type FieldError, invalidInput } from "../../domain/field-errors.ts"
import { isId } from "../../domain/ids.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { rfc3339 } from "../../domain/time.ts"
import { Store, type StoreError, type UniqueViolation } from "../../ports/store.ts"
import { closeCardsOfDeletedHolder } from "../cards/step.ts"
import { decodeVariant, updateDecoders } from "./decode.ts"

export const customerNotFound = (id: string) => new UserNotFound({ message: `Customer ${id} not found`, details: { customerId: id } })

export const termsNotSupported = (termsVersion: string) =>
  new EndUserTermsVersionNotFound({
    message: `End User Terms version ${termsVersion} is not supported`,
    details: { supportedVersions: supportedTermsVersions }
  })

const checkTerms = (consent: { readonly termsVersion: string } | undefined) =>
  consent === undefined || supportedTermsVersions.includes(consent.termsVersion) ? Effect.void : Effect.fail(termsNotSupported(consent.termsVersion))

export const umaTaken = (uma: string) =>
  new UmaAddressExists({ message: `UMA address ${uma} is already in use`, details: { umaAddress: uma } })

/** 409 UMA_ADDRESS_EXISTS when another active customer of the platform holds the address. */
const checkUmaFree = (platform: PlatformRecord, uma: string, self?: string) =>
  Effect.flatMap(Store, (store) => store.findBy(Customers, platform.id, "umaAddress", uma.toLowerCase())).pipe(
    Effect.flatMap((holders) => (holders.some((c) => c.id !== self) ? Effect.fail(umaTaken(uma)) : Effect.void))
  )

/** A malformed id in a path is simply an unknown resource (DECISIONS #3). */
export const loadCustomer = (platform: PlatformRecord, id: string) =>
  isId("Customer", id)
    ? Effect.flatMap(Store, (s) =>
        Effect.flatMap(s.get(Customers, platform.id, id), (found) =>
          Option.isSome(found) ? Effect.succeed(found.value) : Effect.fail(customerNotFound(id))
        )
      )
    : Effect.fail(customerNotFound(id))

export const getCustomer = (platform: PlatformRecord, id: string) => Effect.map(loadCustomer(platform, id), customerView)

type CustomerUpdate = Either.Either.Right<ReturnType<typeof updateDecoders.INDIVIDUAL>> | Either.Either.Right<ReturnType<typeof updateDecoders.BUSINESS>>

/** Validates a PATCH body against the customer it changes; every problem at once. */
const validateUpdate = (platform: PlatformRecord, current: CustomerRecord, input: unknown) =>
  Effect.gen(function* () {
    const body: CustomerUpdate = yield* decodeVariant(updateDecoders, input)
    const problems: Array<FieldError> = []
    if (body.customerType !== current.customerType)
      problems.push({ field: "customerType", message: `must be ${current.customerType}, the customer's type` })
    if (body.email !== undefined && body.phoneNumber !== undefined)
      problems.push({ field: "phoneNumber", message: "update email and phoneNumber in separate requests" })
    if (problems.length > 0) return yield* Effect.fail(invalidInput(problems))
    yield* checkTerms(body.endUserTermsConsent)
    if (body.umaAddress !== undefined) yield* checkUmaFree(platform, body.umaAddress, current.id)
    return body
  })

const applyUpdate = (platform: PlatformRecord, current: CustomerRecord, body: CustomerUpdate) =>
  Effect.gen(function* () {
    const now = rfc3339(yield* Clock.currentTimeMillis)
    const businessInfo =
      body.customerType === "BUSINESS" && body.businessInfo !== undefined ? { businessInfo: { ...current.businessInfo, ...body.businessInfo } } : {}
    const updated: CustomerRecord = { ...current, ...body, ...businessInfo, ...resetChangedContacts(current, body), updatedAt: now }
    // Checked in validation; the store's unique index answers a race between the two.
    yield* (yield* Store)
      .put(Customers, platform.id, updated)
      .pipe(Effect.catchTag("UniqueViolation", () => Effect.fail(umaTaken(updated.umaAddress))))
    return updated
  })

/** The EMAIL_OTP credentials tied to the customer's current email. */
const tiedCredentials = (platform: PlatformRecord, customer: CustomerRecord) =>
  Effect.map(
    Effect.flatMap(Store, (store) => store.findBy(AuthMethods, platform.id, "email", (customer.email ?? "").toLowerCase())),
    (all) => all.filter((a) => a.customerId === customer.id && a.type === "EMAIL_OTP")
  )

const emailTaken = (platform: PlatformRecord, email: string, customerId: string) =>
  Effect.flatMap(
    Effect.flatMap(Store, (store) => store.findBy(AuthMethods, platform.id, "email", email.toLowerCase())),
    (holders) =>
      holders.some((a) => a.type === "EMAIL_OTP" && a.customerId !== customerId)
        ? Effect.fail(new EmailOtpEmailAlreadyExists({ message: `Another EMAIL_OTP credential already uses ${email}`, details: { email } }))
        : Effect.void
  )

interface EmailChange {
  readonly customerId: string
  readonly body: CustomerUpdate
  readonly tiedIds: ReadonlyArray<string>
}

/** The signed part of an email change: the customer's email and its tied credentials change together. */
export const changeCustomerEmailOp = defineSignedOperation("changeCustomerEmail", (platform: PlatformRecord, input: EmailChange) =>
  Effect.gen(function* () {
    const store = yield* Store
    const current = yield* loadCustomer(platform, input.customerId)
    if (current.isDeleted) return yield* Effect.fail(customerNotFound(input.customerId))
    const tied = yield* tiedCredentials(platform, current)
    if (tied.map((a) => a.id).sort().join() !== [...input.tiedIds].sort().join())
      return yield* Effect.fail(
        new EmailOtpCredentialSetChanged({ message: "The customer's EMAIL_OTP credentials changed after the challenge was issued", details: {} })
      )
    const email = input.body.email!
    yield* emailTaken(platform, email, current.id)
    const updated = yield* applyUpdate(platform, current, input.body)
    for (const a of tied) yield* store.put(AuthMethods, platform.id, { ...a, email, nickname: email, updatedAt: updated.updatedAt })
    return reply(200, customerView(updated))
  })
)

/**
 * PATCH /customers/{id}. Fields that need no wallet signature change at once. A new email for a
 * customer whose Global account has an EMAIL_OTP credential tied to the old one is a signed
 * retry on that account (202 → 200): both emails change together, or neither.
 */
export const updateCustomer = (platform: PlatformRecord, id: string, input: unknown, headers: SignedHeaders, target: SignedTarget) =>
  Effect.gen(function* () {
    const store = yield* Store
    const current = yield* loadCustomer(platform, id)
    if (current.isDeleted) return yield* Effect.fail(customerNotFound(id))
    const body = yield* validateUpdate(platform, current, input)
    const tied = body.email !== undefined && body.email !== current.email ? yield* tiedCredentials(platform, current) : []
    // A retry is judged against what its challenge bound, even if the tied set changed since.
    const bound = yield* boundAccount(platform, headers)
    if (tied.length === 0 && Option.isNone(bound))
      return customerView(
        yield* store.transaction(
          // Loaded again under the write permit: a DELETE or PATCH that committed since is kept.
          Effect.gen(function* () {
            const latest = yield* loadCustomer(platform, id)
            if (latest.isDeleted) return yield* Effect.fail(customerNotFound(id))
            return yield* applyUpdate(platform, latest, body)
          })
        )
      )
    return yield* signedRetry({
      platform,
      accountId: Option.getOrElse(bound, () => tied[0]!.accountId),
      ...target,
      body: input,
      headers,
      operation: changeCustomerEmailOp,
      signer: () => accountSession(),
      prepare: Effect.gen(function* () {
        yield* emailTaken(platform, body.email!, current.id)
        return {
          input: { customerId: id, body, tiedIds: tied.map((a) => a.id) } satisfies EmailChange,
          payload: (requestId: string, nowMs: number) =>
            activityPayload({
              type: "ACTIVITY_TYPE_UPDATE_USER_EMAIL",
              organizationId: platform.id,
              requestId,
              nowMs,
              parameters: { userEmail: body.email, userId: tied[0]?.accountId }
            })
        }
      })
    })
  })

/** DELETE /customers/{id}: marks the customer deleted and returns it; again is 410. */
export const deleteCustomer = (platform: PlatformRecord, id: string) =>
  Effect.gen(function* () {
    const store = yield* Store
    return yield* store.transaction(
      Effect.gen(function* () {
        const current = yield* loadCustomer(platform, id)
        if (current.isDeleted)
          return yield* Effect.fail(new CustomerDeleted({ message: `Customer ${id} is already deleted`, details: { customerId: id } }))
        const now = yield* Clock.currentTimeMillis
        const deleted: CustomerRecord = { ...current, isDeleted: true, updatedAt: rfc3339(now) }
        yield* store.put(Customers, platform.id, deleted)
        yield* closeCardsOfDeletedHolder(platform, id, now)
        return customerView(deleted)
      })
    )
  })
