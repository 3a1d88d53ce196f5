import { Clock, Effect, Schema } from "effect"
import { decodeInput, rfc3339, TimeControl } from "@tessera/core"
import type { Route } from "./routes.ts"

const AdvanceBody = Schema.Struct({
  seconds: Schema.Number.pipe(Schema.finite(), Schema.nonNegative(), Schema.lessThanOrEqualTo(315_360_000))
})
const decodeAdvance = decodeInput(AdvanceBody)

const clockState = Effect.gen(function* () {
  const control = yield* TimeControl
  return { now: rfc3339(yield* Clock.currentTimeMillis), mode: control.mode }
})

/** Sandbox controls of time (DECISIONS #20). Not in the reference API: Tessera's own. */
export const clockRoutes: ReadonlyArray<Route> = [
  {
    method: "GET",
    path: "/sandbox/clock",
    operationId: "tessera.getClock",
    status: 200,
    summary: "Sandbox: the server's current time and whether its clock is real or virtual",
    handle: () => clockState
  },
  {
    method: "POST",
    path: "/sandbox/clock/advance",
    operationId: "tessera.advanceClock",
    status: 200,
    summary: "Sandbox: move a virtual clock forward, so expiries and webhook retries come due",
    body: AdvanceBody,
    handle: (c) =>
      Effect.gen(function* () {
        const { seconds } = yield* decodeAdvance(c.body)
        const control = yield* TimeControl
        yield* control.advance(seconds)
        return yield* clockState
      })
  }
]
