import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { Effect, Either } from "effect"
import {
  checkTravelRule,
  createExternalAccount,
  decideLiveness,
  getExternalAccount,
  startOwnershipChallenge,
  verifyOwnership
} from "@tessera/core/operations"
import {
  type Engine,
  type ExternalAccountRecord,
  isReply,
  makeEngine,
  type PlatformRecord,
  TimeControl
} from "@tessera/core"
import { MemoryStore } from "@tessera/adapter-memory"
import { evmSigner } from "@tessera/core/testing"
import { type ExternalAccountEvent, externalAccountStatus } from "../../packages/core/src/machines/external-account-status.ts"

type Step =
  | { readonly _tag: "Challenge"; readonly method: "WALLET_SIGNATURE" | "LIVENESS" }
  | { readonly _tag: "Verify"; readonly how: "valid" | "otherKey" | "garbage" | "oldMessage" }
  | { readonly _tag: "Advance"; readonly seconds: number }
  | { readonly _tag: "Liveness"; readonly outcome: "PASSED" | "FAILED" }

// Weighted so that the interesting interleavings (a challenge, time passing past its expiry,
// then a valid signature) come up in most runs.
const arbStep: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ _tag: fc.constant("Challenge" as const), method: fc.constantFrom("WALLET_SIGNATURE" as const, "WALLET_SIGNATURE" as const, "LIVENESS" as const) }) },
  { weight: 3, arbitrary: fc.record({ _tag: fc.constant("Verify" as const), how: fc.constantFrom("valid" as const, "valid" as const, "otherKey" as const, "garbage" as const, "oldMessage" as const) }) },
  { weight: 3, arbitrary: fc.record({ _tag: fc.constant("Advance" as const), seconds: fc.constantFrom(30, 300, 599, 600, 900) }) },
  { weight: 1, arbitrary: fc.record({ _tag: fc.constant("Liveness" as const), outcome: fc.constantFrom("PASSED" as const, "FAILED" as const) }) }
)

const attempt = async (engine: Engine, e: Effect.Effect<unknown, unknown, any>) => {
  const exit = await engine.runtime.runPromiseExit(e)
  if (exit._tag === "Success") return { ok: true as const, value: isReply(exit.value) ? exit.value.body : exit.value }
  return { ok: false as const, status: (exit.cause as any).error?.status as number }
}

describe("external account status machine (random sequences)", () => {
  it("ACTIVE is reached only by a valid signature on the outstanding challenge before expiry, or a PASSED liveness", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(arbStep, { maxLength: 12 }), async (steps) => {
        const engine = makeEngine({ store: MemoryStore.layer, clock: "virtual", clockStartMs: Date.UTC(2026, 0, 1) })
        try {
          const platform: PlatformRecord = await engine.platform({ clientId: "p", clientSecret: "s" })
          const s = evmSigner()
          const created = await attempt(engine, createExternalAccount(platform, { currency: "USDC", ownershipType: "FIRST_PARTY", accountInfo: { accountType: "ETHEREUM_WALLET", address: s.address } }, "platform"))
          const id = (created.value as { id: string }).id
          let message: string | undefined
          let old: string | undefined
          let expiresAt = 0
          let method: string | undefined
          const status = async () => ((await attempt(engine, getExternalAccount(platform, id, "platform"))).value as { status: string }).status
          // The pure machine, fed the same steps, is the oracle of the engine's status.
          let model = { ...(created.value as object), identityKey: "", createdAt: "", updatedAt: "" } as ExternalAccountRecord
          for (const step of steps) {
            const before = await status()
            const now = await engine.run(Effect.clockWith((c) => c.currentTimeMillis))
            const signsOutstanding = step._tag === "Verify" && step.how === "valid" && message !== undefined
            let earnedActive = false
            switch (step._tag) {
              case "Challenge": {
                const r = await attempt(engine, startOwnershipChallenge(platform, id, { method: step.method }))
                expect(r.ok).toBe(before === "PENDING_OWNERSHIP_VERIFICATION" || before === "UNVERIFIED")
                if (r.ok) {
                  old = message
                  const v = r.value as { messageToSign?: string; expiresAt: string }
                  message = v.messageToSign
                  expiresAt = Date.parse(v.expiresAt)
                  method = step.method
                }
                break
              }
              case "Verify": {
                const text = step.how === "oldMessage" ? old : message
                const sig = step.how === "garbage" || text === undefined ? "0x00" : step.how === "otherKey" ? evmSigner().sign(text) : s.sign(text)
                const r = await attempt(engine, verifyOwnership(platform, id, { signature: sig }))
                const outstanding = method === "WALLET_SIGNATURE" && message !== undefined
                if (!outstanding) expect(r.ok ? 200 : r.status).toBe(409)
                else {
                  earnedActive = step.how === "valid" && now < expiresAt
                  expect(r.ok).toBe(earnedActive)
                  message = undefined
                  method = undefined
                }
                break
              }
              case "Advance":
                await engine.run(Effect.flatMap(TimeControl, (t) => t.advance(step.seconds)))
                break
              case "Liveness": {
                const r = await attempt(engine, decideLiveness(platform, id, { outcome: step.outcome }))
                expect(r.ok).toBe(method === "LIVENESS")
                if (r.ok) {
                  earnedActive = step.outcome === "PASSED"
                  method = undefined
                  message = undefined
                }
                break
              }
            }
            const after = await status()
            if (after === "ACTIVE" && before !== "ACTIVE") expect(earnedActive).toBe(true)
            if (step._tag !== "Advance") {
              const event: ExternalAccountEvent =
                step._tag === "Challenge"
                  ? { _tag: "StartChallenge", method: step.method, nonce: "n", keyedWallet: true }
                  : step._tag === "Verify"
                    ? { _tag: "VerifySignature", verifies: () => signsOutstanding }
                    : { _tag: "DecideLiveness", outcome: step.outcome }
              model = Either.match(externalAccountStatus(model, event, now), { onLeft: () => model, onRight: (t) => t.state })
            }
            expect(after).toBe(model.status)
          }
        } finally {
          await engine.dispose()
        }
      }),
      {
        numRuns: 300,
        // The edge that matters most, always tried: a valid signature exactly at expiry.
        examples: [[[{ _tag: "Challenge", method: "WALLET_SIGNATURE" }, { _tag: "Advance", seconds: 600 }, { _tag: "Verify", how: "valid" }]]]
      }
    )
  }, 60_000)
})

describe("Travel Rule gate (DECISIONS #14)", () => {
  const account = (status: ExternalAccountRecord["status"]) => ({ id: "ExternalAccount:x", status }) as ExternalAccountRecord
  it("stops a transfer above 1,000 EUR to or from an unverified wallet, and nothing else", () => {
    fc.assert(
      fc.property(fc.constantFrom("PENDING", "ACTIVE", "PENDING_OWNERSHIP_VERIFICATION", "UNVERIFIED", "UNDER_REVIEW", "INACTIVE" as const), fc.nat(10_000_000), (status, cents) => {
        const exit = Effect.runSyncExit(checkTravelRule(account(status as ExternalAccountRecord["status"]), cents))
        const blocked = (status === "PENDING_OWNERSHIP_VERIFICATION" || status === "UNVERIFIED") && cents > 100_000
        expect(exit._tag === "Failure").toBe(blocked)
        if (exit._tag === "Failure") expect((exit.cause as any).error._tag).toBe("EXTERNAL_ACCOUNT_VERIFICATION_REQUIRED")
      })
    )
  })
})
