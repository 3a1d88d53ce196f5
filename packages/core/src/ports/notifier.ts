import { Clock, Context, Effect, Layer } from "effect"
import { makeId } from "../domain/ids.ts"
import { collection, sortableInstant, Store, type StoreError } from "./store.ts"
import { Ids } from "./ids.ts"
import { rfc3339 } from "../domain/time.ts"

/** One event in the durable outbox, in the webhook envelope's shape plus delivery bookkeeping. */
export interface OutboxEvent {
  readonly id: string
  readonly type: string
  readonly timestamp: string
  readonly data: unknown
  /** The resource the event is about; delivery is ordered per resource. */
  readonly resourceId: string
  /** Delivery bookkeeping (webhook worker): every attempt, the next one, and how it ended. */
  readonly attempts?: ReadonlyArray<DeliveryAttempt>
  readonly nextAttemptAtMs?: number
  readonly deliveredAt?: string
  /** The receiver answered 409 (it has the event), or retries ran out: no more attempts. */
  readonly abandonedAt?: string
}

export interface DeliveryAttempt {
  readonly at: string
  readonly status?: number
  readonly error?: string
}

const pending = (e: OutboxEvent) => e.deliveredAt === undefined && e.abandonedAt === undefined

export const Outbox = collection<OutboxEvent>()("outbox", (e) => e.id, {
  resourceId: { kind: "plain", keys: (e) => e.resourceId },
  type: { kind: "plain", counted: true, keys: (e) => e.type },
  // A resource's undelivered events, oldest first: only the oldest may be sent.
  pendingResource: { kind: "plain", keys: (e) => (pending(e) ? e.resourceId : undefined) },
  // Undelivered events by next-attempt time: the worker asks what is due, never scans.
  due: { kind: "ordered", keys: (e) => (pending(e) ? sortableInstant(e.nextAttemptAtMs ?? 0) : undefined) }
})

export interface OtpDelivery {
  readonly scope: string
  readonly channel: "EMAIL" | "SMS"
  readonly to: string
  readonly credentialId: string
}

export interface NotifierService {
  /** Appends an event to the outbox; inside a `Store.transaction` it commits with the change. */
  readonly publish: (
    scope: string,
    event: { readonly type: string; readonly resourceId: string; readonly data: unknown }
  ) => Effect.Effect<OutboxEvent, StoreError>
  /** Hook for OTP delivery. The sandbox skips delivery (the code is always 000000). */
  readonly deliverOtp: (delivery: OtpDelivery) => Effect.Effect<void>
}

export class Notifier extends Context.Tag("@tessera/Notifier")<Notifier, NotifierService>() {
  /** Events go to the `outbox` collection of the Store; OTP deliveries go to `onOtp` if given. */
  static readonly outbox = (onOtp?: (d: OtpDelivery) => void) =>
    Layer.effect(
      Notifier,
      Effect.gen(function* () {
        const store = yield* Store
        const ids = yield* Ids
        return {
          publish: (scope, event) =>
            Effect.gen(function* () {
              const now = yield* Clock.currentTimeMillis
              const record: OutboxEvent = {
                id: makeId("Webhook", yield* ids.uuid),
                type: event.type,
                timestamp: rfc3339(now),
                data: event.data,
                resourceId: event.resourceId
              }
              yield* store.put(Outbox, scope, record)
              return record
            }),
          deliverOtp: (d) => Effect.sync(() => onOtp?.(d))
        }
      })
    )
}
