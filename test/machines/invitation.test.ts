import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { Either } from "effect"
import { invitation, type InvitationEvent, invitationStatus } from "../../packages/core/src/machines/invitation.ts"
import type { InvitationRecord } from "../../packages/core/src/domain/invitations/invitation.ts"

const T0 = Date.UTC(2026, 0, 1)
const INVITER = "$ivy@pay.example.com"

const pending = (expiresAt?: number): InvitationRecord => ({
  id: "00112233aabbccdd",
  status: "PENDING",
  inviterUma: INVITER,
  inviterCustomerId: "Customer:00000000-0000-4000-8000-000000000001",
  url: "https://pay.example.com/i/00112233aabbccdd",
  ...(expiresAt === undefined ? {} : { expiresAt: new Date(expiresAt).toISOString() }),
  createdAt: new Date(T0).toISOString(),
  updatedAt: new Date(T0).toISOString()
})

type Step = InvitationEvent | { readonly _tag: "Advance"; readonly ms: number }
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.constant<Step>({ _tag: "Cancel" }),
  fc.constantFrom("$a@x.example", "$b@y.example", INVITER).map((inviteeUma): Step => ({ _tag: "Claim", inviteeUma })),
  fc.integer({ min: 0, max: 3_600_000 }).map((ms): Step => ({ _tag: "Advance", ms }))
)
const expiry = fc.option(fc.integer({ min: 1, max: 7_200_000 }), { nil: undefined })

describe("invitation machine", () => {
  it("reads EXPIRED exactly from expiresAt on, and only while PENDING", () => {
    const i = pending(T0 + 1000)
    expect(invitationStatus(i, T0 + 999)).toBe("PENDING")
    expect(invitationStatus(i, T0 + 1000)).toBe("EXPIRED")
    expect(invitationStatus({ ...i, status: "CLAIMED" }, T0 + 10_000)).toBe("CLAIMED")
    expect(invitationStatus(pending(), T0 + 1e12)).toBe("PENDING")
  })

  it("a claim records the invitee and emits INVITATION.CLAIMED with the claimed invitation", () => {
    const r = invitation(pending(), { _tag: "Claim", inviteeUma: "$bob@other.example" }, T0 + 5)
    expect(Either.isRight(r)).toBe(true)
    if (Either.isLeft(r)) return
    expect(r.right.state).toMatchObject({ status: "CLAIMED", inviteeUma: "$bob@other.example", claimedAt: new Date(T0 + 5).toISOString() })
    expect(r.right.emit).toEqual([{ type: "INVITATION.CLAIMED", resourceId: "00112233aabbccdd", data: expect.objectContaining({ status: "CLAIMED", inviteeUma: "$bob@other.example" }) }])
  })

  it("property: PENDING leaves once and for all; every later event is refused with the code of the status it has, and changes nothing", () => {
    fc.assert(
      fc.property(expiry, fc.array(step, { maxLength: 25 }), (expiresIn, steps) => {
        let state = pending(expiresIn === undefined ? undefined : T0 + expiresIn)
        let now = T0
        let left = false
        for (const s of steps) {
          if (s._tag === "Advance") {
            now += s.ms
            continue
          }
          const before = invitationStatus(state, now)
          const r = invitation(state, s, now)
          if (before !== "PENDING") {
            expect(Either.isLeft(r)).toBe(true)
            const code = Either.isLeft(r) ? r.left._tag : undefined
            expect(code).toBe(before === "CLAIMED" ? "INVITATION_ALREADY_CLAIMED" : before === "CANCELLED" ? "INVITATION_CANCELLED" : "INVALID_INPUT")
            left = true
            continue
          }
          if (Either.isLeft(r)) {
            // The only refusal of a pending invitation: the inviter claiming its own.
            expect(s._tag === "Claim" && s.inviteeUma === INVITER).toBe(true)
            expect(r.left._tag).toBe("INVALID_UMA_ADDRESS")
            continue
          }
          expect(left).toBe(false)
          state = r.right.state
          expect(state.status).toBe(s._tag === "Claim" ? "CLAIMED" : "CANCELLED")
          expect(r.right.emit.map((e) => e.type)).toEqual(s._tag === "Claim" ? ["INVITATION.CLAIMED"] : [])
        }
      })
    )
  })

  it("property: a CLAIMED or CANCELLED invitation refuses every event at any time", () => {
    fc.assert(
      fc.property(fc.constantFrom("CLAIMED", "CANCELLED") as fc.Arbitrary<"CLAIMED" | "CANCELLED">, step, fc.integer({ min: 0, max: 1e9 }), (status, s, dt) => {
        if (s._tag === "Advance") return
        const final = { ...pending(), status }
        expect(Either.isLeft(invitation(final, s, T0 + dt))).toBe(true)
      })
    )
  })
})
