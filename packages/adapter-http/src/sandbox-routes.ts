import { Clock, Effect, Schema } from "effect"
import { decodeInput, exportPlatformState, importPlatformState, resetPlatform, rfc3339, TimeControl } from "@tessera/core"
import type { Route } from "./routes.ts"
import { StateDocument } from "./openapi/own-operations.ts"

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

/**
 * The platform's sandbox state (README, "Sandbox state"): reset, export, import. An import is
 * a request body like any other, so the 1 MiB cap applies (413); bigger documents go through
 * the engine API (`importPlatformState`) or the CLI.
 */
export const stateRoutes: ReadonlyArray<Route> = [
  {
    method: "POST",
    path: "/sandbox/reset",
    operationId: "tessera.resetSandbox",
    status: 200,
    summary: "Sandbox: remove every record of the calling platform and leave it as a new platform is",
    handle: (c) => resetPlatform(c.platform)
  },
  {
    method: "GET",
    path: "/sandbox/state",
    operationId: "tessera.exportSandboxState",
    status: 200,
    summary: "Sandbox: the calling platform's whole state as one versioned JSON document",
    handle: (c) => exportPlatformState(c.platform)
  },
  {
    method: "PUT",
    path: "/sandbox/state",
    operationId: "tessera.importSandboxState",
    status: 200,
    summary: "Sandbox: replace the calling platform's state with an exported document, checked whole before anything is written",
    body: StateDocument,
    handle: (c) => importPlatformState(c.platform, c.body)
  }
]
