import { Clock, Effect, Schema } from "effect"
import { decodeInput } from "../../domain/field-errors.ts"
import { rfc3339 } from "../../domain/time.ts"
import { MAX_ADVANCE_SECONDS } from "../../limits.ts"
import { TimeControl } from "../../ports/time-control.ts"
import { runDueSteps } from "../transactions/due-runner.ts"

/** Sandbox control of time (DECISIONS #20). Not in the reference API: Tessera's own. */
export const AdvanceBody = Schema.Struct({
  seconds: Schema.Number.pipe(Schema.finite(), Schema.nonNegative(), Schema.lessThanOrEqualTo(MAX_ADVANCE_SECONDS))
})
const decodeAdvance = decodeInput(AdvanceBody)

/** The server's current time and whether its clock is real or virtual. */
export const clockState = Effect.gen(function* () {
  const control = yield* TimeControl
  return { now: rfc3339(yield* Clock.currentTimeMillis), mode: control.mode }
})

/**
 * Moves a virtual clock forward (a real clock refuses), applies every outcome step that became
 * due (advancing 6 minutes completes a 003 quote in this request), then answers the clock's state.
 */
export const advanceClock = (body: unknown) =>
  Effect.gen(function* () {
    const { seconds } = yield* decodeAdvance(body)
    const control = yield* TimeControl
    yield* control.advance(seconds)
    yield* runDueSteps
    return yield* clockState
  })
