import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { Either } from "effect"
import type { OutboxEvent } from "../../packages/core/src/ports/notifier.ts"
import { type AttemptOutcome, backoffMs, type DeliveryEvent, deliveryStatus, isClaimed, isDue, outboxDelivery } from "../../packages/core/src/machines/outbox-delivery.ts"
import { BACKOFF_MAX_MS, DELIVERY_WINDOW_MS, WEBHOOK_CLAIM_MS } from "../../packages/core/src/limits.ts"
import { rfc3339 } from "../../packages/core/src/domain/time.ts"

const T0 = Date.UTC(2026, 0, 1)

const pending = (): OutboxEvent => ({ id: "Webhook:1", type: "EXTERNAL_ACCOUNT.STATUS_UPDATED", timestamp: rfc3339(T0), data: {}, resourceId: "ExternalAccount:1" })

const arbOutcome: fc.Arbitrary<AttemptOutcome> = fc.oneof(
  fc.constantFrom(200, 204, 299, 409, 500, 503, 404, 302, 429).map((status) => ({ status })),
  fc.constantFrom("timeout", "ECONNREFUSED").map((error) => ({ error }))
)

const failed = (o: AttemptOutcome) => !("status" in o) || o.status < 200 || o.status >= 300

describe("outbox delivery machine", () => {
  it("attempts made when due back off monotonically, and stop at a 2xx, a 409 or past the window; a final event never changes", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(arbOutcome, fc.integer({ min: 0, max: 2 * 24 * 3_600_000 })), { maxLength: 40 }), (attempts) => {
        let event = pending()
        let now = T0
        let lastGap = 0
        for (const [outcome, lateBy] of attempts) {
          // The worker attempts an event once it is due, possibly late.
          now = Math.max(now, event.nextAttemptAtMs ?? now) + lateBy
          const before = event
          const t = Either.getOrThrow(outboxDelivery(event, { _tag: "Attempted", outcome }, now))
          expect(t.emit).toEqual([])
          expect(t.answer).toBeUndefined()
          if (deliveryStatus(before) !== "PENDING") {
            expect(t.state).toBe(before)
            continue
          }
          event = t.state
          expect(event.attempts).toHaveLength((before.attempts ?? []).length + 1)
          const status = deliveryStatus(event)
          if (!failed(outcome)) expect(status).toBe("DELIVERED")
          else if (("status" in outcome && outcome.status === 409) || now - T0 > DELIVERY_WINDOW_MS) expect(status).toBe("ABANDONED")
          else {
            expect(status).toBe("PENDING")
            const gap = event.nextAttemptAtMs! - now
            expect(gap).toBeGreaterThanOrEqual(lastGap)
            expect(gap).toBeLessThanOrEqual(BACKOFF_MAX_MS)
            expect(isDue(event, now + gap - 1)).toBe(false)
            expect(isDue(event, now + gap)).toBe(true)
            lastGap = gap
          }
          if (status !== "PENDING") expect(isDue(event, Number.MAX_SAFE_INTEGER)).toBe(false)
        }
      })
    )
  })

  it("claims: of any interleaving of claims, releases and attempts, one claim holds at a time on the wall clock, whatever the engine's clock does; an attempt or the holder's release ends it", () => {
    type Step = {
      readonly by: number
      readonly kind: "claim" | "release" | "attempt"
      readonly outcome: AttemptOutcome
      /** Engine time passing (a virtual clock may jump far) and wall time passing, independently. */
      readonly engineWait: number
      readonly wallWait: number
    }
    const arbStep: fc.Arbitrary<Step> = fc.record({
      by: fc.integer({ min: 0, max: 2 }),
      kind: fc.constantFrom("claim", "release", "attempt"),
      outcome: arbOutcome,
      engineWait: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 3_600_000 })),
      wallWait: fc.integer({ min: 0, max: 2 * WEBHOOK_CLAIM_MS })
    })
    fc.assert(
      fc.property(fc.array(arbStep, { maxLength: 60 }), (steps) => {
        let event = pending()
        let now = T0
        let wall = T0 + 12_345
        // What each of three instances believes it holds: its claim's deadline.
        const held = new Map<number, number>()
        for (const s of steps) {
          now += s.engineWait
          wall += s.wallWait
          const before = event
          const e: DeliveryEvent =
            s.kind === "claim"
              ? { _tag: "Claimed", wallNowMs: wall, untilWallMs: wall + WEBHOOK_CLAIM_MS }
              : s.kind === "release"
                ? { _tag: "Released", untilWallMs: held.get(s.by) ?? -1 }
                : { _tag: "Attempted", outcome: s.outcome }
          const t = Either.getOrThrow(outboxDelivery(before, e, now))
          expect(t.emit).toEqual([])
          event = t.state
          if (deliveryStatus(before) !== "PENDING") expect(event).toBe(before)
          if (s.kind === "claim") {
            // Won exactly when due on the engine's clock and unclaimed on the wall clock.
            const won = event !== before
            expect(won).toBe(isDue(before, now) && !isClaimed(before, wall))
            if (won) {
              held.set(s.by, wall + WEBHOOK_CLAIM_MS)
              expect(isClaimed(event, wall + WEBHOOK_CLAIM_MS - 1)).toBe(true)
              expect(isClaimed(event, wall + WEBHOOK_CLAIM_MS)).toBe(false)
            }
          } else if (s.kind === "release") {
            const holds = deliveryStatus(before) === "PENDING" && before.claimedUntilWallMs !== undefined && before.claimedUntilWallMs === held.get(s.by)
            expect(event.claimedUntilWallMs).toBe(holds ? undefined : before.claimedUntilWallMs)
            held.delete(s.by)
          } else {
            expect(event.claimedUntilWallMs).toBeUndefined()
            held.clear()
          }
        }
      })
    )
  })

  it("the backoff doubles from 1 s and is capped at 30 minutes", () => {
    expect([1, 2, 3, 4].map(backoffMs)).toEqual([1000, 2000, 4000, 8000])
    for (let n = 1; n < 60; n++) expect(backoffMs(n + 1)).toBeGreaterThanOrEqual(backoffMs(n))
    expect(backoffMs(60)).toBe(BACKOFF_MAX_MS)
  })
})
