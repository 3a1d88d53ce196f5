import { Clock, Effect, Either, Option, Schema } from "effect"
import { Customers, ExternalAccounts } from "../../domain/collections.ts"
import { optional } from "../../domain/common.ts"
import { Conflict, Unauthorized } from "../../domain/errors.ts"
import { invalidInput } from "../../domain/field-errors.ts"
import { makeId } from "../../domain/ids.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { rfc3339 } from "../../domain/time.ts"
import { lifetimes } from "../../limits.ts"
import { decodeBody } from "../../domain/wallet-auth/inputs.ts"
import { constantTimeEqual } from "../../crypto/secrets.ts"
import { utf8 } from "../../crypto/encoding.ts"
import { Ids } from "../../ports/ids.ts"
import { Store } from "../../ports/store.ts"
import { loadExternalAccount } from "./external-accounts.ts"
import { SCA_COUNTRIES } from "../../sandbox/sca.ts"
import { SANDBOX_SCA_CODE } from "../../sandbox/literals.ts"


export const TrustConfirmBody = Schema.Struct({
  challengeId: optional(Schema.NullOr(Schema.String)),
  code: optional(Schema.NullOr(Schema.String)),
  passkeyAssertion: optional(Schema.NullOr(Schema.Unknown)),
  origin: optional(Schema.NullOr(Schema.String))
})

const scaCustomer = (platform: PlatformRecord, customerId: string | undefined) =>
  Effect.gen(function* () {
    const customer = customerId === undefined ? Option.none() : yield* (yield* Store).get(Customers, platform.id, customerId)
    const country = Option.isSome(customer) ? (customer.value.address?.country ?? customer.value.nationality) : undefined
    if (country === undefined || !SCA_COUNTRIES.has(country))
      return yield* new Conflict({ message: "Beneficiary trust applies only to customers in SCA-regulated regions (EU/EEA)", details: { reason: "SCA_NOT_REQUIRED" } })
  })

/** POST …/{id}/trust and …/untrust: issues the SCA challenge the confirm call must satisfy. */
export const startTrustChange = (platform: PlatformRecord, id: string, trust: boolean) =>
  Effect.flatMap(Store, (store) =>
    store.transaction(
      Effect.gen(function* () {
        const account = yield* loadExternalAccount(platform, id, "customers")
        yield* scaCustomer(platform, account.customerId)
        if ((account.trusted === true) === trust)
          return yield* new Conflict({ message: `The account is already ${trust ? "trusted" : "not trusted"}`, details: { reason: "NO_CHANGE" } })
        const now = yield* Clock.currentTimeMillis
        const challengeId = makeId("ScaChallenge", yield* (yield* Ids).uuid)
        const expiresAtMs = now + lifetimes.otpMs
        yield* store.put(ExternalAccounts, platform.id, { ...account, trustChange: { challengeId, trust, expiresAtMs } })
        return {
          scaChallenge: {
            id: challengeId,
            expiresAt: rfc3339(expiresAtMs),
            factor: "SMS_OTP",
            availableFactors: ["SMS_OTP"],
            purpose: trust ? "TRUST_BENEFICIARY" : "UNTRUST_BENEFICIARY"
          }
        }
      })
    )
  )

/** POST …/trust/confirm and …/untrust/confirm: the SCA proof (sandbox code 123456) → `{trusted}`. */
export const confirmTrustChange = (platform: PlatformRecord, id: string, body: unknown, trust: boolean) =>
  Effect.gen(function* () {
    const input = decodeBody(TrustConfirmBody)(body)
    if (Either.isLeft(input)) return yield* input.left
    const { code, challengeId } = input.right
    if (typeof code !== "string")
      return yield* invalidInput([{ field: "code", message: "is required: the sandbox proves SCA with the SMS_OTP / TOTP code (123456)" }])
    const store = yield* Store
    return yield* store.transaction(
      Effect.gen(function* () {
        const account = yield* loadExternalAccount(platform, id, "customers")
        const pending = account.trustChange
        const now = yield* Clock.currentTimeMillis
        if (pending === undefined || pending.trust !== trust || now >= pending.expiresAtMs)
          return yield* new Conflict({ message: `No ${trust ? "trust" : "untrust"} challenge is pending for this account`, details: { reason: "NO_PENDING_CHALLENGE" } })
        if (typeof challengeId === "string" && challengeId !== pending.challengeId)
          return yield* invalidInput([{ field: "challengeId", message: "does not name the pending challenge" }])
        if (!constantTimeEqual(utf8(code), utf8(SANDBOX_SCA_CODE)))
          return yield* new Unauthorized({ message: "SCA verification failed", details: { reason: "Invalid SCA code" } })
        const { trustChange: _done, ...rest } = account
        yield* store.put(ExternalAccounts, platform.id, { ...rest, trusted: trust, updatedAt: rfc3339(now) })
        return { trusted: trust }
      })
    )
  })
