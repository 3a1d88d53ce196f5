import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { Either } from "effect"
import type { ExternalAccountRecord, ExternalAccountStatus } from "../../packages/core/src/domain/external-accounts/record.ts"
import {
  awaitsOwnership,
  type ExternalAccountEvent,
  externalAccountStatus,
  STATUS_UPDATED,
  travelRule
} from "../../packages/core/src/machines/external-account-status.ts"
import { lifetimes, SCA_CHALLENGE_MS, TRAVEL_RULE_THRESHOLD_EUR_CENTS } from "../../packages/core/src/limits.ts"

const T0 = Date.UTC(2026, 0, 1)
const STATUSES: ReadonlyArray<ExternalAccountStatus> = ["PENDING", "ACTIVE", "PENDING_OWNERSHIP_VERIFICATION", "UNVERIFIED", "UNDER_REVIEW", "INACTIVE"]

const account = (status: ExternalAccountStatus, ownershipType: "FIRST_PARTY" | "THIRD_PARTY" = "FIRST_PARTY"): ExternalAccountRecord => ({
  id: "ExternalAccount:1",
  status,
  ownershipType,
  currency: "USDC",
  defaultUmaDepositAccount: false,
  accountInfo: { accountType: "ETHEREUM_WALLET", address: "0xabc" },
  identityKey: "platform|ETHEREUM_WALLET|0xabc",
  createdAt: "2026-01-01T00:00:00Z",
  updatedAt: "2026-01-01T00:00:00Z"
})

/** The test's alphabet: every machine event, plus time passing past a challenge's lifetime. */
type Step = { readonly _tag: "Event"; readonly event: ExternalAccountEvent; readonly label: string } | { readonly _tag: "Advance" }

const ALPHABET: ReadonlyArray<Step> = [
  { _tag: "Event", label: "challenge signature", event: { _tag: "StartChallenge", method: "WALLET_SIGNATURE", nonce: "n", keyedWallet: true } },
  { _tag: "Event", label: "challenge liveness", event: { _tag: "StartChallenge", method: "LIVENESS", nonce: "n", keyedWallet: true } },
  { _tag: "Event", label: "challenge unkeyed", event: { _tag: "StartChallenge", method: "WALLET_SIGNATURE", nonce: "n", keyedWallet: false } },
  { _tag: "Event", label: "valid signature", event: { _tag: "VerifySignature", verifies: () => true } },
  { _tag: "Event", label: "bad signature", event: { _tag: "VerifySignature", verifies: () => false } },
  { _tag: "Event", label: "liveness passed", event: { _tag: "DecideLiveness", outcome: "PASSED" } },
  { _tag: "Event", label: "liveness failed", event: { _tag: "DecideLiveness", outcome: "FAILED" } },
  { _tag: "Event", label: "trust", event: { _tag: "StartTrustChange", trust: true, challengeId: "ScaChallenge:1" } },
  { _tag: "Event", label: "confirm trust", event: { _tag: "ConfirmTrustChange", trust: true, challengeId: undefined, proof: { kind: "code", matches: true } } },
  { _tag: "Event", label: "confirm trust, wrong code", event: { _tag: "ConfirmTrustChange", trust: true, challengeId: undefined, proof: { kind: "code", matches: false } } },
  { _tag: "Advance" }
]

const check = (ok: boolean, what: string) => {
  if (!ok) throw new Error(what)
}

/**
 * One step and its invariants: ACTIVE only through a valid signature on an unexpired
 * WALLET_SIGNATURE challenge or a PASSED liveness; an event exactly when the status changed,
 * carrying the new status; a deferred answer only with UNVERIFIED and the challenge spent; an
 * error is a 4xx and changes nothing (the caller persists nothing). Plain checks, not `expect`:
 * the exhaustive walk takes hundreds of thousands of steps.
 */
const checkedStep = (state: ExternalAccountRecord, step: Step, now: number): { readonly state: ExternalAccountRecord; readonly now: number } => {
  if (step._tag === "Advance") return { state, now: now + lifetimes.ownershipChallengeMs }
  const result = externalAccountStatus(state, step.event, now)
  if (Either.isLeft(result)) {
    check([400, 401, 409].includes(result.left.status), `${step.label}: ${result.left.status}`)
    return { state, now }
  }
  const t = result.right
  const changed = t.state.status !== state.status
  check(t.emit.length === (changed ? 1 : 0), `${step.label}: ${t.emit.length} events for ${state.status} → ${t.state.status}`)
  if (changed) {
    const e = t.emit[0]!
    check(e.type === STATUS_UPDATED && e.resourceId === state.id && (e.data as { status: string }).status === t.state.status, `${step.label}: event`)
  }
  if (t.state.status === "ACTIVE" && state.status !== "ACTIVE") {
    const e = step.event
    const viaSignature = e._tag === "VerifySignature" && state.challenge?.method === "WALLET_SIGNATURE" && now < state.challenge.expiresAtMs && e.verifies("")
    const viaLiveness = e._tag === "DecideLiveness" && e.outcome === "PASSED" && state.challenge?.method === "LIVENESS"
    check(viaSignature || viaLiveness, `${step.label}: ACTIVE from ${state.status}`)
  }
  if (t.answer !== undefined)
    check(
      t.answer.status === 400 &&
        (step.event._tag === "ConfirmTrustChange"
          ? // A wrong SCA code is counted on the pending change; nothing else moves.
            t.state.status === state.status && t.state.trusted === state.trusted && (t.state.trustChange?.failedAttempts ?? 0) === (state.trustChange?.failedAttempts ?? 0) + 1
          : t.state.status === "UNVERIFIED" && t.state.challenge === undefined),
      `${step.label}: answer ${t.answer.status}`
    )
  return { state: t.state, now }
}

/** Walks every sequence of up to `depth` steps (sharing prefixes); answers how many it checked. */
const walk = (state: ExternalAccountRecord, now: number, depth: number, path: ReadonlyArray<string>): number => {
  if (depth === 0) return 1
  let n = 1
  for (const step of ALPHABET) {
    const label = step._tag === "Advance" ? "advance" : step.label
    let after: { readonly state: ExternalAccountRecord; readonly now: number }
    try {
      after = checkedStep(state, step, now)
    } catch (e) {
      throw new Error(`after [${[...path, label].join(", ")}]: ${(e as Error).message}`)
    }
    n += walk(after.state, after.now, depth - 1, [...path, label])
  }
  return n
}

describe("external-account status machine", () => {
  it("every sequence of up to 4 steps from every status keeps the invariants (exhaustive)", () => {
    let sequencesChecked = 0
    for (const status of STATUSES)
      for (const ownership of ["FIRST_PARTY", "THIRD_PARTY"] as const) sequencesChecked += walk(account(status, ownership), T0, 4, [])
    expect(sequencesChecked).toBe(STATUSES.length * 2 * ((ALPHABET.length ** 5 - 1) / (ALPHABET.length - 1)))
  })

  it("every status × event pair: a challenge only from PENDING_OWNERSHIP_VERIFICATION or UNVERIFIED, settling only an outstanding one", () => {
    for (const status of STATUSES)
      for (const step of ALPHABET) {
        if (step._tag !== "Event") continue
        const result = externalAccountStatus(account(status), step.event, T0)
        switch (step.event._tag) {
          case "StartChallenge":
            expect(Either.isRight(result)).toBe(step.event.keyedWallet && awaitsOwnership(status))
            if (Either.isRight(result)) expect(result.right.state.status).toBe("PENDING_OWNERSHIP_VERIFICATION")
            break
          case "VerifySignature":
          case "DecideLiveness":
          case "ConfirmTrustChange":
            // No challenge outstanding on a fresh account: 409, whatever the status.
            expect(Either.isLeft(result) && result.left.status).toBe(409)
            break
          case "StartTrustChange":
            expect(Either.isRight(result) && result.right.state.status).toBe(status)
        }
      }
  })

  it("a late or wrong signature is saved as UNVERIFIED and then answered 400 with its reason", () => {
    const challenged = externalAccountStatus(account("PENDING_OWNERSHIP_VERIFICATION"), { _tag: "StartChallenge", method: "WALLET_SIGNATURE", nonce: "n", keyedWallet: true }, T0)
    const withChallenge = Either.getOrThrow(challenged).state
    const late = Either.getOrThrow(externalAccountStatus(withChallenge, { _tag: "VerifySignature", verifies: () => true }, T0 + lifetimes.ownershipChallengeMs))
    expect(late.state.status).toBe("UNVERIFIED")
    expect(late.answer).toMatchObject({ _tag: "INVALID_INPUT", details: { reason: "CHALLENGE_EXPIRED" } })
    const wrong = Either.getOrThrow(externalAccountStatus(withChallenge, { _tag: "VerifySignature", verifies: () => false }, T0 + 1))
    expect(wrong.answer).toMatchObject({ _tag: "INVALID_INPUT", details: { reason: "SIGNATURE_INVALID" } })
    expect(wrong.emit).toHaveLength(1)
  })

  it("trust changes need a pending challenge of the same direction, in time, and the SCA code; they never touch the status", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...STATUSES),
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: 0, max: 2 * SCA_CHALLENGE_MS }),
        fc.boolean(),
        (status, trust, confirmTrust, elapsed, codeMatches) => {
          const started = Either.getOrThrow(externalAccountStatus(account(status), { _tag: "StartTrustChange", trust: true, challengeId: "c" }, T0))
          expect(started.emit).toHaveLength(0)
          const confirmed = externalAccountStatus(started.state, { _tag: "ConfirmTrustChange", trust: confirmTrust, challengeId: trust ? "c" : undefined, proof: { kind: "code", matches: codeMatches } }, T0 + elapsed)
          const ok = confirmTrust && elapsed < SCA_CHALLENGE_MS && codeMatches
          expect(Either.isRight(confirmed) && confirmed.right.answer === undefined).toBe(ok)
          if (ok && Either.isRight(confirmed)) {
            expect(confirmed.right.state).toMatchObject({ trusted: true, status })
            expect(confirmed.right.state.trustChange).toBeUndefined()
          } else if (!confirmTrust) expect(Either.isLeft(confirmed) && confirmed.left.status).toBe(409)
          else if (elapsed >= SCA_CHALLENGE_MS) expect(Either.isLeft(confirmed) && confirmed.left.status).toBe(400)
          else {
            // A wrong code is counted on the pending change, then answered 400; the account stays untrusted.
            const wrong = Either.getOrThrow(confirmed)
            expect(wrong.answer?.status).toBe(400)
            expect(wrong.state.trustChange?.failedAttempts).toBe(1)
            expect(wrong.state.trusted).not.toBe(true)
          }
        }
      )
    )
  })

  it("Travel Rule: above the threshold, only an account awaiting ownership is stopped", () => {
    for (const status of STATUSES)
      for (const cents of [0, TRAVEL_RULE_THRESHOLD_EUR_CENTS, TRAVEL_RULE_THRESHOLD_EUR_CENTS + 1]) {
        const r = travelRule(account(status), cents, TRAVEL_RULE_THRESHOLD_EUR_CENTS)
        expect(Either.isLeft(r)).toBe(awaitsOwnership(status) && cents > TRAVEL_RULE_THRESHOLD_EUR_CENTS)
      }
  })
})
