import { Effect, Either, Schema } from "effect"
import { ProcessingControls } from "../../domain/collections.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { decodeBody } from "../../domain/field-errors.ts"
import { Store } from "../../ports/store.ts"
import { loadWallet } from "../wallet-auth/wallet-context.ts"

export const ProcessingHoldBody = Schema.Struct({
  operations: Schema.Int.pipe(Schema.between(0, 1000)),
  seconds: Schema.Number.pipe(Schema.finite(), Schema.between(0, 86_400))
})

/**
 * Sandbox control (DECISIONS #18): the next `operations` signed operations of the account (or,
 * without an account, of the whole platform) answer 200 PROCESSING until `seconds` of clock time
 * passed; identical re-sends then get the real outcome. `operations: 0` lifts the control.
 */
export const setProcessingHold = (platform: PlatformRecord, accountId: string | undefined, body: unknown) =>
  Effect.gen(function* () {
    const input = decodeBody(ProcessingHoldBody)(body)
    if (Either.isLeft(input)) return yield* input.left
    const id = accountId === undefined ? "platform" : (yield* loadWallet(platform, accountId)).id
    const control = { id, remaining: input.right.operations, holdMs: Math.round(input.right.seconds * 1000) }
    yield* (yield* Store).put(ProcessingControls, platform.id, control)
    return { scope: accountId ?? "platform", remainingOperations: control.remaining, holdSeconds: input.right.seconds }
  })
