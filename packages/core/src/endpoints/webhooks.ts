import { sendTestWebhook, webhookPublicKey } from "../operations/webhooks/delivery.ts"
import { EventsQuery, listEvents } from "../operations/webhooks/events.ts"
import { endpoint } from "./define.ts"

/** The platform's webhook events, a test delivery, and the key signatures verify with. */
export const webhookEndpoints = [
  endpoint({
    group: "webhooks",
    name: "listEvents",
    method: "GET",
    path: "/sandbox/events",
    operationId: "tessera.listEvents",
    status: 200,
    summary: "Sandbox: the webhook events of the platform, oldest first, with each one's delivery attempts",
    query: EventsQuery,
    run: (r) => listEvents(r.platform, r.query)
  }),
  endpoint({
    group: "webhooks",
    name: "sendTest",
    method: "POST",
    path: "/sandbox/webhooks/test",
    operationId: "sendTestWebhook",
    status: 200,
    summary: "Send a signed test event to the platform's webhook URL and report the receiver's answer",
    run: (r) => sendTestWebhook(r.platform)
  }),
  endpoint({
    group: "webhooks",
    name: "publicKey",
    method: "GET",
    path: "/sandbox/webhooks/public-key",
    operationId: "tessera.webhookPublicKey",
    status: 200,
    summary: "Sandbox: the P-256 public key webhook signatures verify with",
    run: () => webhookPublicKey
  })
]
