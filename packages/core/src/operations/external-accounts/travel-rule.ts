import { Effect } from "effect"
import { ExternalAccountVerificationRequired } from "../../domain/errors.ts"
import type { ExternalAccountRecord } from "../../domain/external-accounts/record.ts"
import { TRAVEL_RULE_THRESHOLD_EUR_CENTS } from "../../limits.ts"


/**
 * The Travel Rule gate the money-movement work calls for every transfer to or from an external
 * account: above the threshold, an account still awaiting (or having failed) ownership
 * verification stops the transfer with 400 EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED.
 */
export const checkTravelRule = (account: ExternalAccountRecord, amountEurCents: number, thresholdEurCents = TRAVEL_RULE_THRESHOLD_EUR_CENTS) =>
  (account.status === "PENDING_OWNERSHIP_VERIFICATION" || account.status === "UNVERIFIED") && amountEurCents > thresholdEurCents
    ? Effect.fail(
        new ExternalAccountVerificationRequired({
          message: "The external account's ownership must be verified before a transfer of this size",
          details: { externalAccountId: account.id, status: account.status, thresholdEurCents }
        })
      )
    : Effect.void
