import type { ReplayPlan } from "./replay.ts"

/** One response as Tessera sent it: status, raw header pairs in order, body text. */
export interface CapturedResponse {
  readonly status: number
  readonly headers: ReadonlyArray<readonly [string, string]>
  readonly body: string
}

/** The statements of one signed flow on the SQLite store, to run on a copy of its database. */
export interface SqliteFlow {
  /** A copy of the store's database as it was before the logged flow. */
  readonly file: string
  readonly pragmas: Record<string, unknown>
  readonly plan: ReplayPlan
  /** How many of the plan's calls the first leg made (the rest are the retry's). */
  readonly leg1Calls: number
  /** The uuid of the logged flow's request id. */
  readonly requestUuid: string
}

/** What the bare server answers (bare-server.ts), written by the bench as a JSON file. */
export interface BareConfig {
  readonly get: CapturedResponse
  readonly post: CapturedResponse
  readonly flow?: {
    readonly leg1: CapturedResponse
    readonly leg2: CapturedResponse
    readonly payloadToSign: string
    readonly requestId: string
    readonly sqlite?: SqliteFlow
  }
}
