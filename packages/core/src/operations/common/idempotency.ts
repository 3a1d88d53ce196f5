import { Clock, Effect, Either, Option } from "effect"
import { IdempotencyKeys } from "../../domain/collections.ts"
import { Conflict, InvalidInput } from "../../domain/errors.ts"
import { decodeInput } from "../../domain/field-errors.ts"
import { IdempotencyKey } from "../../domain/idempotency.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { reply, type Reply } from "../../domain/reply.ts"
import { rfc3339 } from "../../domain/time.ts"
import { sha256Hex } from "../../crypto/secrets.ts"
import { canonicalJson } from "../../signed-retry/canonical.ts"
import { Store, type StoreError } from "../../ports/store.ts"

const decodeKey = decodeInput(IdempotencyKey, ["Idempotency-Key"])

/** What a key is bound to: the method, the concrete path and the body (canonical JSON). */
export const requestFingerprint = (method: string, path: string, body: unknown): string =>
  sha256Hex(`${method} ${path}\n${canonicalJson(body ?? null)}`)

/**
 * The answers worth replaying: a final one. A signed retry's 202 challenge or a PROCESSING hold is
 * not; a quote created PENDING_AUTHORIZATION (202 with the quote, #230) is.
 */
const isHeldQuote = (r: Reply) => r.status === 202 && (r.body as { status?: unknown } | undefined)?.status === "PENDING_AUTHORIZATION"
const isFinal = (r: Reply): boolean =>
  r.status >= 200 && r.status < 300 && (r.status !== 202 || isHeldQuote(r)) && !(r.status === 200 && (r.body as { status?: unknown } | undefined)?.status === "PROCESSING" && Object.keys(r.body as object).length <= 2)

/**
 * Runs `program` at most once per platform and `Idempotency-Key` (DECISIONS #191): the first
 * final answer is stored with the request's fingerprint in the program's own transaction, the
 * same key on the same request answers it again exactly, and on another request is 409
 * CONFLICT (400 INVALID_INPUT where the reference declares no 409 for the endpoint). Failures are not stored (a failed call changed nothing, so trying again is safe).
 * Without a key the program just runs.
 */
export const idempotent = <E, R>(
  platform: PlatformRecord,
  key: string | undefined,
  fingerprint: string,
  program: Effect.Effect<Reply, E, R>,
  conflictStatus: 400 | 409 = 409
): Effect.Effect<Reply, E | Conflict | InvalidInput | StoreError, R | Store> =>
  key === undefined
    ? program
    : Effect.gen(function* () {
      const valid = decodeKey(key)
      if (Either.isLeft(valid)) return yield* valid.left
      const store = yield* Store
      return yield* store.transaction(
        Effect.gen(function* () {
          const seen = yield* store.get(IdempotencyKeys, platform.id, key)
          if (Option.isSome(seen)) {
            if (seen.value.fingerprint !== fingerprint) return yield* reused(key, conflictStatus)
            return reply(seen.value.status, seen.value.body)
          }
          const answer = yield* program
          if (isFinal(answer)) {
            const now = yield* Clock.currentTimeMillis
            yield* store.put(IdempotencyKeys, platform.id, { id: key, fingerprint, status: answer.status, body: answer.body, createdAt: rfc3339(now) })
          }
          return answer
        })
      )
    })

const reused = (key: string, status: 400 | 409) => {
  const message = "This Idempotency-Key was already used with a different request"
  const details = { reason: "IDEMPOTENCY_KEY_REUSED", idempotencyKey: key }
  return status === 409
    ? new Conflict({ message, details })
    : new InvalidInput({ message, details: { ...details, errors: [{ field: "Idempotency-Key", message: "was already used with a different request" }] } })
}
