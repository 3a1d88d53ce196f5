import { Clock, Effect, Either, Schema } from "effect"
import { ExternalAccounts } from "../../domain/collections.ts"
import { optional } from "../../domain/common.ts"
import type { ExternalAccountRecord } from "../../domain/external-accounts/record.ts"
import { decodeBody, invalidInput } from "../../domain/field-errors.ts"
import { makeId } from "../../domain/ids.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { rfc3339 } from "../../domain/time.ts"
import { externalAccountStatus, trustChangeRefusal } from "../../machines/external-account-status.ts"
import { commitStep } from "../common/step.ts"
import { Ids } from "../../ports/ids.ts"
import { Store } from "../../ports/store.ts"
import { loadExternalAccount } from "./external-accounts.ts"
import { loadScaCustomer, requireSession, scaNotRequired } from "../sca/customer.ts"
import { judgeProof, proofFields, proofProblems } from "../sca/proof.ts"

export const TrustConfirmBody = Schema.Struct({
  challengeId: optional(Schema.NullOr(Schema.String)),
  ...proofFields
})

/**
 * Trust changes are for an SCA customer with an open SCA session (DECISIONS #220, #226): 409
 * CONFLICT outside SCA regions, 409 SCA_SESSION_REQUIRED without a session.
 */
const scaCustomerWithSession = (platform: PlatformRecord, customerId: string | undefined) =>
  Effect.gen(function* () {
    if (customerId === undefined) return yield* scaNotRequired()
    const customer = yield* Effect.catchTag(loadScaCustomer(platform, customerId), "USER_NOT_FOUND", () => scaNotRequired())
    return yield* requireSession(platform, customer.id)
  })

/** POST …/{id}/trust and …/untrust: issues the SCA challenge the confirm call must satisfy. */
export const startTrustChange = (platform: PlatformRecord, id: string, trust: boolean) =>
  commitStep(
    platform.id,
    Effect.gen(function* () {
      const account = yield* loadExternalAccount(platform, id, "customers")
      yield* scaCustomerWithSession(platform, account.customerId)
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

/**
 * POST …/trust/confirm and …/untrust/confirm: the SCA proof (sandbox code 123456) → `{trusted}`.
 * A wrong code is counted and answered 400; the fifth withdraws the challenge (#224).
 */
export const confirmTrustChange = (platform: PlatformRecord, id: string, body: unknown, trust: boolean) =>
  Effect.gen(function* () {
    const input = decodeBody(TrustConfirmBody)(body)
    if (Either.isLeft(input)) return yield* input.left
    const problems = proofProblems(input.right)
    if (problems.length > 0) return yield* invalidInput(problems)
    const { challengeId } = input.right
    return yield* commitStep(
      platform.id,
      Effect.gen(function* () {
        const account = yield* loadExternalAccount(platform, id, "customers")
        const profile = yield* scaCustomerWithSession(platform, account.customerId)
        const pending = account.trustChange
        const challenge = { id: pending?.challengeId ?? "", factor: "SMS_OTP" as const, availableFactors: ["SMS_OTP" as const], expiresAtMs: 0, sentAtMs: 0, failedAttempts: 0 }
        const event = {
          _tag: "ConfirmTrustChange" as const,
          trust,
          challengeId: typeof challengeId === "string" ? challengeId : undefined,
          proof: judgeProof(profile, challenge, input.right).proof
        }
        const transition = yield* externalAccountStatus(account, event, yield* Clock.currentTimeMillis)
        return { transition, save: putAccount(platform), view: (a: ExternalAccountRecord) => ({ trusted: a.trusted === true }) }
      })
    )
  })
