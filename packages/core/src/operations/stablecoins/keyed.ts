import { Effect, Either } from "effect"
import type { InvalidInput } from "../../domain/errors.ts"
import { type FieldError, invalidInput } from "../../domain/field-errors.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { reply } from "../../domain/reply.ts"
import { idempotent, requestFingerprint } from "../common/idempotency.ts"

/**
 * A stablecoin POST: the reference makes `Idempotency-Key` required on all four (DECISIONS #353).
 * A missing key is a field error listed with the body's own; with one, the first 201 is replayed
 * for the same request and another request under the key is 409 CONFLICT.
 */
export const keyedCreate = <A, B, E, R>(
  platform: PlatformRecord,
  key: string | undefined,
  path: string,
  body: unknown,
  decode: (u: unknown) => Either.Either<A, InvalidInput>,
  program: (input: A) => Effect.Effect<B, E, R>
) =>
  Effect.gen(function* () {
    const decoded = decode(body)
    if (key === undefined) {
      const missing: FieldError = { field: "Idempotency-Key", message: "is required" }
      const others = Either.isLeft(decoded) ? ((decoded.left.details?.["errors"] as ReadonlyArray<FieldError> | undefined) ?? []) : []
      return yield* Effect.fail(invalidInput([missing, ...others]))
    }
    return yield* idempotent(
      platform,
      key,
      requestFingerprint("POST", path, body),
      Effect.gen(function* () {
        const input = yield* decoded
        return reply(201, yield* program(input))
      }),
      409
    )
  })
