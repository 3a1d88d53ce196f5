import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { Either } from "effect"
import {
  checkRetry,
  issued,
  type Retry,
  retryRoute,
  type SignatureCheck,
  settleable,
  signedRequest,
  signerNotAuthorised
} from "../../packages/core/src/machines/signed-request.ts"
import type { SignedRequestRecord } from "../../packages/core/src/domain/wallet-auth/records.ts"
import type { DomainError } from "../../packages/core/src/domain/envelope.ts"
import { lifetimes } from "../../packages/core/src/limits.ts"

const T0 = Date.UTC(2026, 0, 1)

const fresh = () =>
  issued(
    { id: "Request:1", accountId: "InternalAccount:1", method: "DELETE", path: "/auth/sessions/Session:1", bodySha256: "b", payloadToSign: "p", kind: "revokeSession", input: {}, createdAt: "2026-01-01T00:00:00Z" },
    T0
  )

type Sig = SignatureCheck["_tag"]
const signature = (tag: Sig): SignatureCheck =>
  tag === "Signed" ? { _tag: "Signed", publicKey: "02ab" } : tag === "Malformed" ? { _tag: "Malformed", reason: "not JSON" } : { _tag: tag } as SignatureCheck

type Step =
  | { readonly _tag: "Retry"; readonly sameOperation: boolean; readonly sameBody: boolean; readonly sig: Sig; readonly stamp: 0 | 1; readonly signerAllowed: boolean }
  | { readonly _tag: "Advance"; readonly ms: number }
  | { readonly _tag: "Control"; readonly holdMs: number }
  | { readonly _tag: "Reconcile" }

const arbStep: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      _tag: fc.constant("Retry" as const),
      sameOperation: fc.boolean(),
      sameBody: fc.boolean(),
      sig: fc.constantFrom<Sig>("Signed", "Signed", "LegacyLiteral", "Malformed", "Invalid"),
      stamp: fc.constantFrom<0 | 1>(0, 0, 1),
      signerAllowed: fc.boolean()
    })
  },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: lifetimes.signedRetryChallengeMs }).map((ms) => ({ _tag: "Advance" as const, ms })) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 60_000 }).map((holdMs) => ({ _tag: "Control" as const, holdMs })) },
  { weight: 1, arbitrary: fc.constant({ _tag: "Reconcile" as const }) }
)

const retryOf = (step: Extract<Step, { _tag: "Retry" }>): Retry => ({
  accountId: "InternalAccount:1",
  method: "DELETE",
  path: step.sameOperation ? "/auth/sessions/Session:1" : "/auth/sessions/Session:2",
  bodySha256: step.sameBody ? "b" : "c",
  signature: () => signature(step.sig)
})

/** What signedRetry does with one retry, over the machine alone: the answer and the next record. */
const retry = (record: SignedRequestRecord, step: Extract<Step, { _tag: "Retry" }>, holds: Array<number>, now: number) => {
  const checked = checkRetry(record, retryOf(step), now)
  if (Either.isLeft(checked)) return { record, answer: checked.left as DomainError | string }
  if (checked.right !== undefined && !step.signerAllowed) return { record, answer: signerNotAuthorised() as DomainError | string }
  const route = retryRoute(record, `stamp-${step.stamp}`, now)
  if (Either.isLeft(route)) return { record, answer: route.left as DomainError | string }
  if (route.right._tag !== "Run") return { record, answer: route.right._tag }
  if (route.right.mayHold && holds.length > 0) {
    const held = Either.getOrThrow(signedRequest(record, { _tag: "Hold", stampSha256: `stamp-${step.stamp}`, holdMs: holds.shift()! }, now))
    return { record: held.state, answer: "Held" }
  }
  return { record: Either.getOrThrow(signedRequest(record, { _tag: "Consume" }, now)).state, answer: "Ran" }
}

describe("signed-request machine", () => {
  it("a request id runs its operation at most once; CONSUMED is final and answers 401 or, reconciled, only the identical re-send", () => {
    fc.assert(
      fc.property(fc.array(arbStep, { maxLength: 25 }), (steps) => {
        let record = fresh()
        let now = T0
        let runs = 0
        const holds: Array<number> = []
        const order = { ISSUED: 0, PROCESSING: 1, CONSUMED: 2 }
        for (const step of steps) {
          const before = record
          if (step._tag === "Advance") now += step.ms
          else if (step._tag === "Control") holds.push(step.holdMs)
          else if (step._tag === "Reconcile") {
            if (settleable(record, now)) {
              record = Either.getOrThrow(signedRequest(record, { _tag: "Consume", settledReply: { status: 204, body: undefined } }, now)).state
              runs++
            }
          } else {
            const r = retry(record, step, holds, now)
            record = r.record
            if (r.answer === "Ran") runs++
            if (before.state === "CONSUMED") {
              expect(r.answer).not.toBe("Ran")
              if (r.answer === "Replay") expect(before.settledReply).toBeDefined()
              else expect(typeof r.answer === "string" ? r.answer : r.answer.status).toBe(401)
            }
            if (r.answer === "Ran" || r.answer === "Held") expect(before.state === "ISSUED" ? now < before.expiresAtMs : true).toBe(true)
          }
          expect(order[record.state]).toBeGreaterThanOrEqual(order[before.state])
          expect(runs).toBeLessThanOrEqual(1)
          expect(runs === 1).toBe(record.state === "CONSUMED")
        }
      })
    )
  })

  it("the 401s of a retry come in the spec's order: the first defect decides", () => {
    const defects = ["mismatch", "usedUp", "expired", "body", "malformed", "invalid", "signer"] as const
    const expected: Record<(typeof defects)[number], string> = {
      mismatch: "REQUEST_ID_MISMATCH",
      usedUp: "REQUEST_ID_ALREADY_USED",
      expired: "CHALLENGE_EXPIRED",
      body: "WALLET_SIGNATURE_BODY_MISMATCH",
      malformed: "WALLET_SIGNATURE_MALFORMED",
      invalid: "WALLET_SIGNATURE_INVALID",
      signer: "SIGNER_NOT_AUTHORISED"
    }
    fc.assert(
      fc.property(fc.subarray([...defects], { minLength: 1 }), (present) => {
        const has = (d: (typeof defects)[number]) => present.includes(d)
        // "usedUp" and "expired" are states of the record: consumed wins over an expired ISSUED one.
        const record: SignedRequestRecord = has("usedUp") ? { ...fresh(), state: "CONSUMED" } : fresh()
        const now = has("expired") ? record.expiresAtMs : T0
        const step = {
          _tag: "Retry" as const,
          sameOperation: !has("mismatch"),
          sameBody: !has("body"),
          sig: has("malformed") ? ("Malformed" as const) : has("invalid") ? ("Invalid" as const) : ("Signed" as const),
          stamp: 0 as const,
          signerAllowed: !has("signer")
        }
        const r = retry(record, step, [], now)
        const first = defects.find((d) => has(d) && !(d === "expired" && has("usedUp")))!
        const answer = r.answer as DomainError
        expect(answer.status).toBe(401)
        expect([answer._tag, (answer.details as { reason?: string } | undefined)?.reason]).toContain(expected[first])
      })
    )
  })
})
