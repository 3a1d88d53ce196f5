import { Clock, Effect, Either } from "effect"
import { SignedRequests } from "../../domain/collections.ts"
import { envelopeOf, isDomainError } from "../../domain/envelope.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { Store, StoreError } from "../../ports/store.ts"
import { settleable, signedRequest } from "../../machines/signed-request.ts"
import { signedOperation } from "./signed-operations.ts"

/**
 * The service settles held operations on its own (spec, still-processing 4): before listing an
 * account's credentials or sessions, every PROCESSING operation whose hold has passed runs, and
 * its answer is kept for the identical re-send. Export is never settled this way.
 */
export const reconcileAccount = (platform: PlatformRecord, accountId: string) =>
  Effect.flatMap(Store, (store) =>
    store.transaction(
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const held = yield* store.findBy(SignedRequests, platform.id, "processingAccount", accountId)
        for (const record of held) {
          const op = signedOperation(record.kind)
          if (op === undefined || !op.reconcilable || !settleable(record, now)) continue
          const result = yield* Effect.either(op.run(platform, record.input))
          const settledReply = Either.isRight(result)
            ? { status: result.right.status, body: result.right.body }
            : isDomainError(result.left)
              ? { status: result.left.status, body: envelopeOf(result.left) }
              : // A store that could not answer settles nothing: the operation stays held.
                result.left instanceof StoreError
                ? yield* Effect.fail(result.left)
                : yield* Effect.die(result.left)
          yield* store.put(SignedRequests, platform.id, (yield* signedRequest(record, { _tag: "Consume", settledReply }, now)).state)
        }
      })
    )
  )
