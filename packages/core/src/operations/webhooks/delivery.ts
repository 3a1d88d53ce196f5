import { createPublicKey } from "node:crypto"
import { Clock, Effect, Either, Option } from "effect"
import { WebhookDeliveryError, WebhookEndpointNotSet } from "../../domain/errors.ts"
import { makeId } from "../../domain/ids.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { rfc3339 } from "../../domain/time.ts"
import { signP256 } from "../../crypto/p256.ts"
import { serverKeyPair } from "../wallet-auth/server-keys.ts"
import { utf8 } from "../../crypto/encoding.ts"
import { Ids } from "../../ports/ids.ts"
import { awaitDurable } from "../../ports/transaction-context.ts"
import { isUndelivered, oldestUndelivered, Outbox, type OutboxEvent } from "../../ports/notifier.ts"
import { SERVER_SCOPE, sortableInstant, Store } from "../../ports/store.ts"
import { Platforms } from "../../domain/collections.ts"
import { WebhookTransport } from "../../ports/webhook-transport.ts"
import { type AttemptOutcome, backoffMs, delivered, type DeliveryEvent, isClaimed, outboxDelivery } from "../../machines/outbox-delivery.ts"
import { to, type Transition } from "../../machines/transition.ts"
import { commitStep } from "../common/step.ts"
import { currentPlatform } from "../platform/platforms.ts"
import { WEBHOOK_CLAIM_MS, WEBHOOK_CONCURRENCY, WEBHOOK_DUE_BATCH } from "../../limits.ts"

/**
 * Webhook delivery (spec "Events"; reference retry policy): each event is POSTed as its
 * envelope `{id, type, timestamp, data}`, signed with the server's P-256 key over the raw body
 * (`X-Service-Signature`, and `X-Grid-Signature` with the same value: DECISIONS #2), retried
 * with exponential backoff (1 s doubling, at most 30 min apart) for up to 7 days, at least once
 * and in order per resource. A 409 from the receiver means it has the event: no retry.
 */
export { backoffMs }

const signingKey = serverKeyPair("webhook-signing-p256")

/** The key receivers verify deliveries with: uncompressed SEC1 hex and SPKI PEM. */
export const webhookPublicKey = Effect.map(signingKey, (k) => {
  const raw = Buffer.from(k.publicKeyUncompressed, "hex")
  const pem = createPublicKey({
    key: { kty: "EC", crv: "P-256", x: raw.subarray(1, 33).toString("base64url"), y: raw.subarray(33).toString("base64url") },
    format: "jwk"
  })
    .export({ format: "pem", type: "spki" })
    .toString()
  return { algorithm: "ECDSA_P256_SHA256", publicKeyHex: k.publicKeyUncompressed, publicKeyPem: pem }
})

/** The signature header value: `{"v":"1","s":"<base64 DER>"}` over the exact body bytes. */
export const signatureHeader = (body: string) =>
  Effect.map(signingKey, (k) => JSON.stringify({ v: "1", s: Buffer.from(signP256(k.privateKey, utf8(body))).toString("base64") }))

const envelope = (e: Pick<OutboxEvent, "id" | "type" | "timestamp" | "data">) => JSON.stringify({ id: e.id, type: e.type, timestamp: e.timestamp, data: e.data })

const send = (url: string, body: string) =>
  Effect.gen(function* () {
    const signature = yield* signatureHeader(body)
    const headers = { "content-type": "application/json", "x-service-signature": signature, "x-grid-signature": signature }
    return yield* Effect.either((yield* WebhookTransport).post(url, headers, body))
  })

const oldestPending = (platform: PlatformRecord, resourceId: string) =>
  Effect.flatMap(Store, (store) => oldestUndelivered(store, platform.id, resourceId))

/** Once a resource's head is delivered or abandoned, the next event of its queue becomes due. */
const promoteNext = (platform: PlatformRecord, resourceId: string) =>
  Effect.flatMap(oldestPending(platform, resourceId), (following) => {
    if (following?.waiting !== true) return Effect.void
    const { waiting: _queued, ...head } = following
    return Effect.flatMap(Store, (store) => store.put(Outbox, platform.id, head))
  })

/**
 * Steps an event's delivery as stored now, in its own transaction, and answers the event as it
 * was and as it is. An event gone since (a sandbox reset) or already final takes no write.
 */
const stepDelivery = (platform: PlatformRecord, id: string, event: Exclude<DeliveryEvent, { _tag: "Claimed" }>, at: number) =>
  commitStep(
    platform.id,
    Effect.gen(function* () {
      const store = yield* Store
      const found = Option.getOrUndefined(yield* store.get(Outbox, platform.id, id))
      const transition: Transition<OutboxEvent | undefined> = found === undefined ? to(undefined) : yield* outboxDelivery(found, event, at)
      const save = (next: OutboxEvent | undefined) =>
        next === undefined || next === found
          ? Effect.void
          : Effect.zipRight(store.put(Outbox, platform.id, next), isUndelivered(next) ? Effect.void : promoteNext(platform, next.resourceId))
      return { transition, save, view: (next: OutboxEvent | undefined) => ({ found, next }) }
    })
  )

/** Records an attempt's outcome; the claim the attempt was made under ends with it. */
const recordAttempt = (platform: PlatformRecord, id: string, outcome: AttemptOutcome, at: number) =>
  stepDelivery(platform, id, { _tag: "Attempted", outcome }, at)

/** The wall clock, whatever the engine's: a claim guards an HTTP attempt, which takes real time (#300). */
const wallNow = Effect.sync(() => Date.now())

/**
 * Claims a due head for one attempt (DECISIONS #300): of several instances that read it as due,
 * the one whose transaction commits first gets it; the others find it claimed, delivered or no
 * longer the head of its resource's queue (order per resource holds across instances too), and
 * leave it. Answers the claimed event, or undefined.
 */
const claim = (platform: PlatformRecord, id: string) =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const wallNowMs = yield* wallNow
    const untilWallMs = wallNowMs + WEBHOOK_CLAIM_MS
    return yield* commitStep(
      platform.id,
      Effect.gen(function* () {
        const store = yield* Store
        const found = Option.getOrUndefined(yield* store.get(Outbox, platform.id, id))
        const head = found !== undefined && (yield* oldestPending(platform, found.resourceId))?.id === id
        const transition: Transition<OutboxEvent | undefined> = head ? yield* outboxDelivery(found, { _tag: "Claimed", wallNowMs, untilWallMs }, now) : to(found)
        const won = (next: OutboxEvent | undefined): next is OutboxEvent => next !== undefined && next !== found
        return {
          transition,
          save: (next: OutboxEvent | undefined) => (won(next) ? store.put(Outbox, platform.id, next) : Effect.void),
          view: (next: OutboxEvent | undefined) => (won(next) ? { event: next, untilWallMs } : undefined)
        }
      })
    )
  })

/** Gives a claimed event back unsent (the attempt was interrupted): due again at once, not when the claim runs out. */
const release = (platform: PlatformRecord, id: string, untilWallMs: number) =>
  Effect.flatMap(Clock.currentTimeMillis, (now) => stepDelivery(platform, id, { _tag: "Released", untilWallMs }, now))

/**
 * What is due on a platform now: the due index holds only each resource's head (later events
 * wait), so a batch is heads of distinct resources. The check against the oldest pending event
 * keeps order for events stored before heads were marked. Decided before anything is sent.
 */
const dueHeads = (platform: PlatformRecord) =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const due = yield* (yield* Store).due(Outbox, platform.id, "due", sortableInstant(now) ?? "", WEBHOOK_DUE_BATCH)
    const wallNowMs = yield* wallNow
    const heads: Array<OutboxEvent> = []
    // One another instance is sending is left alone here, without a transaction to find that out.
    for (const event of due) if (!isClaimed(event, wallNowMs) && (yield* oldestPending(platform, event.resourceId))?.id === event.id) heads.push(event)
    return heads
  })

/**
 * One attempt: claim, send, then record its outcome in its own transaction. Answers undefined when
 * another instance had the event. Only the send can be interrupted (a shutdown): an interrupted
 * attempt records nothing and gives its claim back, so the event stays due and is sent again
 * after a restart; an answer that came back is recorded whatever happens.
 */
const attempt = (platform: PlatformRecord, url: string, head: OutboxEvent) =>
  Effect.gen(function* () {
    const claimed = yield* Effect.uninterruptible(claim(platform, head.id))
    if (claimed === undefined) return undefined
    // The event goes out only once it is on disk: the claim committed after it, so its fsync covers both (#313).
    yield* awaitDurable
    const sent = yield* send(url, envelope(claimed.event)).pipe(
      Effect.onInterrupt(() => Effect.ignore(release(platform, head.id, claimed.untilWallMs)))
    )
    const outcome: AttemptOutcome = Either.isRight(sent) ? { status: sent.right.status } : { error: sent.left.reason }
    yield* Effect.uninterruptible(Effect.flatMap(Clock.currentTimeMillis, (at) => recordAttempt(platform, head.id, outcome, at)))
    return delivered(outcome)
  })

/**
 * Sends every due head, up to WEBHOOK_CONCURRENCY at once: one slow receiver costs one slot, not
 * the pass. The heads are of distinct resources, so a resource has one event in flight at most
 * and its receiver still sees its events in order.
 */
const deliverHeads = (work: ReadonlyArray<readonly [PlatformRecord, string, OutboxEvent]>) =>
  Effect.map(
    Effect.forEach(work, ([platform, url, event]) => attempt(platform, url, event), { concurrency: WEBHOOK_CONCURRENCY }),
    (outcomes) => ({ attempted: outcomes.filter((o) => o !== undefined).length, delivered: outcomes.filter((ok) => ok === true).length })
  )

/** One delivery pass for a platform: the oldest pending event of each resource whose next attempt is due is sent. */
export const deliverDue = (platform: PlatformRecord) =>
  Effect.gen(function* () {
    const url = platform.webhookUrl
    if (url === undefined) return { attempted: 0, delivered: 0 }
    const heads = yield* dueHeads(platform)
    return yield* deliverHeads(heads.map((event) => [platform, url, event] as const))
  })

/** Sends one TEST event to `url` and reports what came back: the event and the answer, or why none came (never retried). */
export const deliverTestEvent = (url: string) =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const event = { id: makeId("Webhook", yield* (yield* Ids).uuid), type: "TEST", timestamp: rfc3339(now), data: {} }
    const outcome = yield* send(url, envelope(event))
    return { event, outcome }
  })

/**
 * POST /sandbox/webhooks/test: a TEST event to the platform's URL, never retried. 200 with the
 * receiver's 2xx answer; 400 WEBHOOK_ENDPOINT_NOT_SET without a URL, WEBHOOK_DELIVERY_ERROR when
 * no answer came back or the receiver answered anything else (a failed delivery, as the reference
 * has it; its status is in `details.response_status`). The URL is the stored one, so a URL set
 * by `PATCH /config` counts at once, whatever record an embedder holds (#243).
 */
export const sendTestWebhook = (given: PlatformRecord) =>
  Effect.gen(function* () {
    const url = (yield* currentPlatform(given)).webhookUrl
    if (url === undefined)
      return yield* new WebhookEndpointNotSet({ message: "No webhook URL is configured (PATCH /config webhookEndpoint, or TESSERA_WEBHOOK_URL)", details: {} })
    const { outcome } = yield* deliverTestEvent(url)
    if (Either.isLeft(outcome))
      return yield* new WebhookDeliveryError({ message: "The webhook could not be delivered", details: { url, reason: outcome.left.reason } })
    const { status } = outcome.right
    if (!delivered({ status }))
      return yield* new WebhookDeliveryError({ message: `The webhook receiver answered ${status}`, details: { url, response_status: status } })
    return { url, response_status: outcome.right.status, response_body: outcome.right.body }
  })

/** One delivery pass for every platform with a webhook URL (the standalone server's worker tick). */
export const deliverAll = Effect.gen(function* () {
  const page = yield* (yield* Store).list(Platforms, SERVER_SCOPE, { limit: 10_000, where: [{ index: "withWebhook", eq: "yes" }] })
  const work: Array<readonly [PlatformRecord, string, OutboxEvent]> = []
  for (const platform of page.items) {
    const url = platform.webhookUrl
    if (url !== undefined) for (const event of yield* dueHeads(platform)) work.push([platform, url, event])
  }
  return yield* deliverHeads(work)
})
