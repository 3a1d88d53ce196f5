import { Effect, Either } from "effect"
import { TRAVEL_RULE_THRESHOLD_EUR_CENTS } from "../../limits.ts"
import type { ExternalAccountRecord } from "../../domain/external-accounts/record.ts"
import { travelRule } from "../../machines/external-account-status.ts"

/**
 * The Travel Rule gate the money-movement work calls for every transfer to or from an external
 * account: above the threshold, an account still awaiting (or having failed) ownership
 * verification stops the transfer with 400 EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED.
 */
export const checkTravelRule = (account: ExternalAccountRecord, amountEurCents: number, thresholdEurCents = TRAVEL_RULE_THRESHOLD_EUR_CENTS) =>
  Either.match(travelRule(account, amountEurCents, thresholdEurCents), { onLeft: Effect.fail, onRight: () => Effect.void })
