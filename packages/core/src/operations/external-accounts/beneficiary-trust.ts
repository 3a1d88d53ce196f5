import { Clock, Effect, Either, Option, Schema } from "effect"
import { Customers, ExternalAccounts } from "../../domain/collections.ts"
import { optional } from "../../domain/common.ts"
import { Conflict } from "../../domain/errors.ts"
import type { ExternalAccountRecord } from "../../domain/external-accounts/record.ts"
import { invalidInput } from "../../domain/field-errors.ts"
import { makeId } from "../../domain/ids.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { rfc3339 } from "../../domain/time.ts"
import { externalAccountStatus, trustChangeRefusal } from "../../machines/external-account-status.ts"
import { commitStep } from "../common/step.ts"
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
  commitStep(
    platform.id,
    Effect.gen(function* () {
      const account = yield* loadExternalAccount(platform, id, "customers")
      yield* scaCustomer(platform, account.customerId)
      // The challenge id is drawn only for a change the machine will accept.
      const refusal = trustChangeRefusal(account, trust)
      if (refusal !== undefined) return yield* refusal
      const challengeId = makeId("ScaChallenge", yield* (yield* Ids).uuid)
      const transition = yield* externalAccountStatus(account, { _tag: "StartTrustChange", trust, challengeId }, yield* Clock.currentTimeMillis)
      return { transition, save: putAccount(platform), view: trustChallengeView }
    })
  )

const putAccount = (platform: PlatformRecord) => (account: ExternalAccountRecord) =>
  Effect.flatMap(Store, (store) => store.put(ExternalAccounts, platform.id, account))

const trustChallengeView = (account: ExternalAccountRecord) => {
  const pending = account.trustChange!
  return {
    scaChallenge: {
      id: pending.challengeId,
      expiresAt: rfc3339(pending.expiresAtMs),
      factor: "SMS_OTP",
      availableFactors: ["SMS_OTP"],
      purpose: pending.trust ? "TRUST_BENEFICIARY" : "UNTRUST_BENEFICIARY"
    }
  }
}

/** POST …/trust/confirm and …/untrust/confirm: the SCA proof (sandbox code 123456) → `{trusted}`. */
export const confirmTrustChange = (platform: PlatformRecord, id: string, body: unknown, trust: boolean) =>
  Effect.gen(function* () {
    const input = decodeBody(TrustConfirmBody)(body)
    if (Either.isLeft(input)) return yield* input.left
    const { code, challengeId } = input.right
    if (typeof code !== "string")
      return yield* invalidInput([{ field: "code", message: "is required: the sandbox proves SCA with the SMS_OTP / TOTP code (123456)" }])
    return yield* commitStep(
      platform.id,
      Effect.gen(function* () {
        const account = yield* loadExternalAccount(platform, id, "customers")
        const event = {
          _tag: "ConfirmTrustChange" as const,
          trust,
          challengeId: typeof challengeId === "string" ? challengeId : undefined,
          codeMatches: constantTimeEqual(utf8(code), utf8(SANDBOX_SCA_CODE))
        }
        const transition = yield* externalAccountStatus(account, event, yield* Clock.currentTimeMillis)
        return { transition, save: putAccount(platform), view: (a: ExternalAccountRecord) => ({ trusted: a.trusted === true }) }
      })
    )
  })
