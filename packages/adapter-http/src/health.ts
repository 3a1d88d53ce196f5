import { Cause, Exit } from "effect"
import { type Engine, envelopeOf, healthCheck, ServiceUnavailable } from "@tessera/core"
import type { HttpResponse } from "./handler.ts"
import { logError } from "./log.ts"

const headers = (): Record<string, string> => ({ "content-type": "application/json; charset=utf-8", "cache-control": "no-store" })

/**
 * `GET /health`, unauthenticated and outside the version prefix, for load balancers and
 * orchestrators: 200 `{status: "ok", apiVersion, store, clock}`, or 503 with the error envelope
 * when the store does not answer.
 */
export const health =
  (apiVersion: string) =>
  (engine: Engine, respond: (res: HttpResponse) => void): void =>
    engine.runReport(healthCheck, (exit) => {
      if (Exit.isSuccess(exit)) {
        const { status, ...rest } = exit.value
        return respond({ status: 200, headers: headers(), body: JSON.stringify({ status, apiVersion, ...rest }) })
      }
      logError("health check failed", { cause: Cause.pretty(exit.cause) })
      const unavailable = new ServiceUnavailable({ message: "The store is not answering", details: {} })
      return respond({ status: unavailable.status, headers: headers(), body: JSON.stringify(envelopeOf(unavailable)) })
    })
