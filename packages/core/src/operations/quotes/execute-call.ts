import { Clock, Effect, Either } from "effect"
import { decodeInput, isJsonObject, bodyNotAnObject } from "../../domain/field-errors.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { ExecuteQuoteRequest } from "../../domain/quotes/request.ts"
import { reply } from "../../domain/reply.ts"
import { Store } from "../../ports/store.ts"
import { accountSigner } from "../../signed-retry/authorize.ts"
import { activityPayload } from "../../signed-retry/canonical.ts"
import { defineSignedOperation } from "../../signed-retry/registry.ts"
import { type SignedHeaders, signedRetry } from "../../signed-retry/signed-retry.ts"
import type { SignedTarget } from "../../signed-retry/target.ts"
import { idempotent, requestFingerprint } from "../common/idempotency.ts"
import { loadQuote, startExecution } from "./execute.ts"
import type { QuoteRecord } from "../../domain/quotes/quote.ts"
import { quoteMachine } from "../../machines/quote.ts"
import type { ScaFactor } from "../../domain/sca/records.ts"
import { checkScaFactor } from "./sca.ts"

const decodeBody = decodeInput(ExecuteQuoteRequest)

/** Executes the stored quote now, in one Store transaction (also what a signed retry settles). */
const executeNow = (platform: PlatformRecord, quoteId: string, scaFactor?: ScaFactor) =>
  Effect.gen(function* () {
    const store = yield* Store
    return yield* store.transaction(
      Effect.gen(function* () {
        const quote = yield* loadQuote(platform, quoteId)
        return reply(200, yield* startExecution(platform, quote, yield* Clock.currentTimeMillis, scaFactor))
      })
    )
  })

// The spec's seventh signed endpoint: a quote from an embedded wallet is released by the wallet's signature.
export const executeQuoteOp = defineSignedOperation("executeQuote", (platform: PlatformRecord, input: { readonly quoteId: string; readonly scaFactor?: ScaFactor }) =>
  executeNow(platform, input.quoteId, input.scaFactor)
)

/**
 * POST /quotes/{quoteId}/execute (DECISIONS #195, #196, #230). The body is optional: `scaFactor`
 * chooses the factor of the SCA challenge an SCA customer's execution is held for. An EMBEDDED_WALLET source is a signed retry: the first call answers 202
 * with the payload to stamp, the retry executes (PROCESSING holds included); any other source
 * executes at once. With `Idempotency-Key`, the first final answer is the answer for that key.
 */
export const executeQuote = (platform: PlatformRecord, quoteId: string, body: unknown, headers: SignedHeaders, target: SignedTarget, idempotencyKey?: string) =>
  idempotent(
    platform,
    idempotencyKey,
    requestFingerprint(target.method, target.path, body ?? {}),
    Effect.gen(function* () {
      let scaFactor: ScaFactor | undefined
      if (body !== undefined && body !== null) {
        if (!isJsonObject(body)) return yield* bodyNotAnObject()
        const decoded = decodeBody(body)
        if (Either.isLeft(decoded)) return yield* decoded.left
        scaFactor = decoded.right.scaFactor
        yield* checkScaFactor(scaFactor)
      }
      const quote = yield* loadQuote(platform, quoteId)
      if (quote.sourceAccountType !== "EMBEDDED_WALLET") return yield* executeNow(platform, quote.id, scaFactor)
      const accountId = quote.source.sourceType === "ACCOUNT" ? quote.source.accountId : ""
      return yield* signedRetry({
        platform,
        accountId,
        ...target,
        body: body ?? {},
        headers,
        operation: executeQuoteOp,
        // A session on the wallet, or the wallet's ACTIVE delegated key in its place (DECISIONS #265).
        signer: () => accountSigner,
        // A quote that cannot be executed says so now, not after the wallet signed.
        prepare: Effect.as(executable(quote), {
          input: scaFactor === undefined ? { quoteId: quote.id } : { quoteId: quote.id, scaFactor },
          payload: (requestId: string, nowMs: number) =>
            activityPayload({
              type: "ACTIVITY_TYPE_SIGN_TRANSACTION",
              organizationId: platform.id,
              requestId,
              nowMs,
              parameters: {
                walletId: accountId,
                quoteId: quote.id,
                amount: String(quote.totalSendingAmount),
                currency: quote.sendingCurrency.code
              }
            })
        })
      })
    })
  )

const executable = (quote: QuoteRecord) =>
  Effect.flatMap(Clock.currentTimeMillis, (now) => Either.match(quoteMachine(quote, { _tag: "Execute" }, now), { onLeft: Effect.fail, onRight: () => Effect.void }))
