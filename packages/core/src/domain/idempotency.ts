import { Schema } from "effect"

/**
 * A platform's `Idempotency-Key` and the first successful answer given for it. The fingerprint
 * is of the request (method, path, body): the same key on another request is refused.
 */
export interface IdempotencyRecord {
  readonly id: string
  readonly fingerprint: string
  readonly status: number
  readonly body: unknown
  readonly createdAt: string
}

/** The header's value: the reference bounds it at 255 characters where it states a bound. */
export const IdempotencyKey = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(255))
