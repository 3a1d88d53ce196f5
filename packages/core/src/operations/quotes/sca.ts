import { Effect, Option } from "effect"
import { ExternalAccounts } from "../../domain/collections.ts"
import { invalidInput } from "../../domain/field-errors.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import type { QuoteRecord } from "../../domain/quotes/quote.ts"
import type { ScaFactor } from "../../domain/sca/records.ts"
import { SCA_CHALLENGE_MS } from "../../limits.ts"
import { factorEnrolled } from "../../machines/sca-factors.ts"
import { Store } from "../../ports/store.ts"
import { loadProfile, newChallenge, scaAppliesTo } from "../sca/customer.ts"

/** `scaFactor` of a quote or an execute: SMS_OTP (the default) or an enrolled PASSKEY; TOTP cannot carry dynamic linking. */
export const checkScaFactor = (factor: ScaFactor | undefined) =>
  factor === "TOTP" ? Effect.fail(invalidInput([{ field: "scaFactor", message: "TOTP cannot authorize a transfer (no dynamic linking): use SMS_OTP or PASSKEY" }])) : Effect.void

/** A send to a beneficiary the customer trusted skips the per-transaction challenge (#231). */
const toTrustedBeneficiary = (platform: PlatformRecord, quote: QuoteRecord) =>
  Effect.gen(function* () {
    if (quote.destination.destinationType !== "ACCOUNT" || quote.destinationKind !== "EXTERNAL") return false
    const account = yield* (yield* Store).get(ExternalAccounts, platform.id, quote.destination.accountId)
    return Option.isSome(account) && account.value.trusted === true
  })

/**
 * The SCA challenge a quote must carry before it moves money (DECISIONS #230, #231), or none:
 * none outside SCA regions, for the platform's own quotes, and (for an execution) to a trusted
 * beneficiary. It expires with the quote at the latest.
 */
export const quoteChallenge = (platform: PlatformRecord, quote: QuoteRecord, purpose: "EXECUTE" | "FUNDING", requested: ScaFactor | undefined, now: number) =>
  Effect.gen(function* () {
    if (!(yield* scaAppliesTo(platform, quote.customerId))) return undefined
    if (purpose === "EXECUTE" && (yield* toTrustedBeneficiary(platform, quote))) return undefined
    yield* checkScaFactor(requested)
    const profile = yield* loadProfile(platform, quote.customerId!)
    const factor = requested ?? "SMS_OTP"
    if (!factorEnrolled(profile, factor)) return yield* invalidInput([{ field: "scaFactor", message: `${factor} is not enrolled for this customer` }])
    return yield* newChallenge({
      factor,
      availableFactors: factorEnrolled(profile, "PASSKEY") ? ["SMS_OTP", "PASSKEY"] : ["SMS_OTP"],
      purpose: "TRANSFER",
      now,
      expiresAtMs: Math.min(now + SCA_CHALLENGE_MS, quote.expiresAtMs)
    })
  })
