import { Context, Data, Effect, Layer } from "effect"
import { WEBHOOK_TIMEOUT_MS } from "../limits.ts"

/** A POST that did not produce an HTTP answer (refused, reset, timed out). */
export class TransportFailure extends Data.TaggedError("TransportFailure")<{ readonly reason: string }> {}

export interface WebhookTransportService {
  /**
   * POSTs `body` to `url`; answers the receiver's status and (truncated) body. Interrupting the
   * effect must abort the request (a shutdown does not wait for a receiver that hangs).
   */
  readonly post: (
    url: string,
    headers: Readonly<Record<string, string>>,
    body: string
  ) => Effect.Effect<{ readonly status: number; readonly body: string }, TransportFailure>
}


/** How webhooks leave the engine. The default uses the web-standard `fetch`; tests may swap it. */
export class WebhookTransport extends Context.Tag("@tessera/WebhookTransport")<WebhookTransport, WebhookTransportService>() {
  /** The service `fetch` provides. */
  static readonly fetchService: WebhookTransportService = {
    post: (url, headers, body) =>
      Effect.tryPromise({
        try: async (signal) => {
          const res = await fetch(url, { method: "POST", headers, body, signal: AbortSignal.any([signal, AbortSignal.timeout(WEBHOOK_TIMEOUT_MS)]) })
          return { status: res.status, body: (await res.text()).slice(0, 2048) }
        },
        catch: (e) => new TransportFailure({ reason: e instanceof Error ? e.message : String(e) })
      })
  }

  static readonly fetch = Layer.succeed(WebhookTransport, WebhookTransport.fetchService)
}
