import { Effect, Either, Option, Schema } from "effect"
import { InternalAccounts } from "../../domain/collections.ts"
import { isId } from "../../domain/ids.ts"
import { referenceNotFound } from "../../domain/not-found.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { decodeBody } from "../../domain/field-errors.ts"
import { SANDBOX_FUND_MAX } from "../../limits.ts"
import { Store } from "../../ports/store.ts"
import { credit } from "../ledger/movements.ts"

/** The reference's `SandboxFundRequest`: a positive integer amount in the account's smallest unit, at most 10^11. */
export const SandboxFundBody = Schema.Struct({
  amount: Schema.Int.pipe(
    Schema.greaterThan(0, { message: () => "must be greater than 0" }),
    Schema.lessThanOrEqualTo(SANDBOX_FUND_MAX, { message: () => `must be at most ${SANDBOX_FUND_MAX}` })
  )
}).annotations({ identifier: "SandboxFundRequest" })

/**
 * `POST /sandbox/internal-accounts/{accountId}/fund`: money from the sandbox's funding source
 * into the account's available balance, one ledger movement, the balance webhook with it.
 * Answers the account as it is after.
 */
export const fundInternalAccount = (platform: PlatformRecord, accountId: string, body: unknown) =>
  Effect.gen(function* () {
    const input = decodeBody(SandboxFundBody)(body)
    if (Either.isLeft(input)) return yield* input.left
    const store = yield* Store
    return yield* store.transaction(
      Effect.gen(function* () {
        if (!isId("InternalAccount", accountId)) return yield* Effect.fail(referenceNotFound("InternalAccount", accountId))
        yield* credit(platform.id, { account: accountId, amount: input.right.amount, counterparty: "funding", kind: "SANDBOX_FUNDING", reference: accountId })
        const account = yield* store.get(InternalAccounts, platform.id, accountId)
        return Option.getOrThrow(account)
      })
    )
  })
