import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { Either } from "effect"
import { openedSession, refreshRefusal, requireActive, session, type SessionEvent, sessionStatus } from "../../packages/core/src/machines/session.ts"
import type { SessionRecord } from "../../packages/core/src/domain/wallet-auth/session.ts"
import { lifetimes } from "../../packages/core/src/limits.ts"

const T0 = Date.UTC(2026, 0, 1)

const opened = (): SessionRecord =>
  openedSession({ id: "Session:1", accountId: "InternalAccount:1", authMethodId: "AuthMethod:1", type: "EMAIL_OTP", nickname: "a@b.c", publicKey: "02ab" }, T0)

type Step = SessionEvent | { readonly _tag: "Advance"; readonly ms: number }

const arbStep: fc.Arbitrary<Step> = fc.oneof(
  fc.constantFrom<Step>({ _tag: "Revoke" }, { _tag: "CredentialRevoked" }),
  fc.integer({ min: 1, max: lifetimes.sessionMs }).map((ms) => ({ _tag: "Advance" as const, ms }))
)

describe("session machine", () => {
  it("ACTIVE until revoked or expired, then ended for good; a revocation is stamped once and an ended session is 404", () => {
    fc.assert(
      fc.property(fc.array(arbStep, { maxLength: 20 }), (steps) => {
        let s = opened()
        let now = T0
        expect(s.expiresAtMs).toBe(T0 + lifetimes.sessionMs)
        for (const step of steps) {
          if (step._tag === "Advance") {
            now += step.ms
            continue
          }
          const before = sessionStatus(s, now)
          const r = session(s, step, now)
          if (Either.isLeft(r)) {
            expect(step._tag).toBe("Revoke")
            expect(before).not.toBe("ACTIVE")
            expect(r.left).toMatchObject({ _tag: "REFERENCE_NOT_FOUND", message: `Session ${s.id} not found`, details: { resource: "Session", id: s.id } })
            continue
          }
          expect(r.right.emit).toEqual([])
          const after = r.right.state
          if (s.revokedAt !== undefined) expect(after.revokedAt).toBe(s.revokedAt)
          else expect(sessionStatus(after, now)).toBe("REVOKED")
          expect(after.expiresAtMs).toBe(s.expiresAtMs)
          s = after
        }
        const status = sessionStatus(s, now)
        expect(Either.isRight(requireActive(s, now))).toBe(status === "ACTIVE")
        expect(refreshRefusal(s, now) === undefined).toBe(status === "ACTIVE")
      })
    )
  })

  it("every status × event pair", () => {
    const active = opened()
    const revoked = Either.getOrThrow(session(active, { _tag: "Revoke" }, T0)).state
    const cases: ReadonlyArray<readonly [SessionRecord, number]> = [
      [active, T0],
      [revoked, T0],
      [active, T0 + lifetimes.sessionMs]
    ]
    const table = cases.map(([s, now]) => [
      sessionStatus(s, now),
      ...(["Revoke", "CredentialRevoked"] as const).map((tag) => {
        const r = session(s, { _tag: tag }, now)
        return Either.isLeft(r) ? r.left.status : sessionStatus(r.right.state, now)
      })
    ])
    expect(table).toEqual([
      ["ACTIVE", "REVOKED", "REVOKED"],
      ["REVOKED", 404, "REVOKED"],
      ["EXPIRED", 404, "REVOKED"]
    ])
  })
})
