import { Clock, Effect } from "effect"
import { Platforms } from "../../domain/collections.ts"
import { rfc3339 } from "../../domain/time.ts"
import { SERVER_SCOPE, Store } from "../../ports/store.ts"
import { TimeControl } from "../../ports/time-control.ts"

/** An id no platform ever has: the probe is a read that always reaches the database. */
const PROBE_ID = "health-probe"

/**
 * What `GET /health` reports. Cheap, but it reads the Store (a read by id that misses every
 * cache), so a closed or broken database fails here instead of answering ok.
 */
export const healthCheck = Effect.gen(function* () {
  const store = yield* Store
  yield* store.get(Platforms, SERVER_SCOPE, PROBE_ID)
  const control = yield* TimeControl
  return {
    status: "ok" as const,
    store: "ok" as const,
    clock: { now: rfc3339(yield* Clock.currentTimeMillis), mode: control.mode }
  }
})
