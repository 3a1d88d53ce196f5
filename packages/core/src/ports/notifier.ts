import { Clock, Context, Effect, Layer } from "effect"
import { makeId } from "../domain/ids.ts"
import { collection, sortableInstant, Store, type StoreError, type StoreService } from "./store.ts"
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
  /**
   * Claimed by an instance for the attempt it is making, until this wall-clock time: no other
   * instance sends it meanwhile (DECISIONS #300).
   */
  readonly claimedUntilWallMs?: number
  /**
   * Queued behind an earlier undelivered event of the same resource: not due until that one is
   * delivered or abandoned, so the due index holds only the head of each resource's queue.
   */
  readonly waiting?: true
}

export interface DeliveryAttempt {
  readonly at: string
  readonly status?: number
  readonly error?: string
}

export const isUndelivered = (e: OutboxEvent): boolean => e.deliveredAt === undefined && e.abandonedAt === undefined

export const Outbox = collection<OutboxEvent>()("outbox", (e) => e.id, {
  resourceId: { kind: "plain", keys: (e) => e.resourceId },
  type: { kind: "plain", counted: true, keys: (e) => e.type },
  // A resource's undelivered events, oldest first: only the oldest may be sent.
  pendingResource: { kind: "plain", keys: (e) => (isUndelivered(e) ? e.resourceId : undefined) },
  // The head of each resource's queue by next-attempt time: the worker asks what is due, never
  // scans, and a resource stuck on a failing receiver cannot crowd out the others.
  due: { kind: "ordered", keys: (e) => (isUndelivered(e) && e.waiting !== true ? sortableInstant(e.nextAttemptAtMs ?? 0) : undefined) }
})

/** The oldest undelivered event of a resource in a scope, if any: the head of its delivery queue. */
export const oldestUndelivered = (store: StoreService, scope: string, resourceId: string) =>
  Effect.map(store.list(Outbox, scope, { where: [{ index: "pendingResource", eq: resourceId }], limit: 1 }), (page) => page.items[0])

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
  static readonly outbox = (onOtp?: (d: OtpDelivery) => void) => Layer.effect(Notifier, Notifier.outboxService(onOtp))

  /** The service `outbox` provides, made by an effect (the engine makes its services so, DECISIONS #509). */
  static readonly outboxService = (onOtp?: (d: OtpDelivery) => void): Effect.Effect<NotifierService, never, Store | Ids> =>
    Effect.gen(function* () {
      const store = yield* Store
      const ids = yield* Ids
      return {
        publish: (scope, event) =>
          Effect.gen(function* () {
            const now = yield* Clock.currentTimeMillis
            const ahead = yield* oldestUndelivered(store, scope, event.resourceId)
            const record: OutboxEvent = {
              id: makeId("Webhook", yield* ids.uuid),
              type: event.type,
              timestamp: rfc3339(now),
              data: event.data,
              resourceId: event.resourceId,
              ...(ahead === undefined ? {} : { waiting: true as const })
            }
            yield* store.put(Outbox, scope, record)
            return record
          }),
        deliverOtp: (d) => Effect.sync(() => onOtp?.(d))
      } satisfies NotifierService
    })
}
