import { Schema } from "effect"
import { optional } from "../../domain/common.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { Outbox, type OutboxEvent } from "../../ports/notifier.ts"
import { equal, listPage, pageParams } from "../common/listing.ts"

export const EventsQuery = Schema.Struct({ type: optional(Schema.String), resourceId: optional(Schema.String), ...pageParams })

/** The webhook envelope of an outbox event, with Tessera's delivery bookkeeping beside it. */
export const eventView = (e: OutboxEvent) => ({
  id: e.id,
  type: e.type,
  timestamp: e.timestamp,
  data: e.data,
  resourceId: e.resourceId,
  delivery: {
    attempts: e.attempts ?? [],
    ...(e.deliveredAt === undefined ? {} : { deliveredAt: e.deliveredAt }),
    ...(e.abandonedAt === undefined ? {} : { abandonedAt: e.abandonedAt }),
    ...(e.nextAttemptAtMs === undefined || e.deliveredAt !== undefined ? {} : { nextAttemptAt: new Date(e.nextAttemptAtMs).toISOString() })
  }
})

/** GET /sandbox/events: what the platform was sent (or will be), oldest first. */
export const listEvents = (platform: PlatformRecord, query: unknown) =>
  listPage({
    collection: Outbox,
    scope: platform.id,
    querySchema: EventsQuery,
    query,
    where: (q) => [equal("resourceId", q.resourceId), equal("type", q.type)],
    view: eventView
  })
