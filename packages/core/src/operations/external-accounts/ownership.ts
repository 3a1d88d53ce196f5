import { Clock, Effect, Either, Schema } from "effect"
import { ExternalAccounts } from "../../domain/collections.ts"
import { NonEmpty, optional } from "../../domain/common.ts"
import { decodeBody } from "../../domain/field-errors.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { reply } from "../../domain/reply.ts"
import { rfc3339 } from "../../domain/time.ts"
import { chains } from "../../domain/external-accounts/chains.ts"
import { type ExternalAccountRecord, externalAccountView, type OwnershipMethod } from "../../domain/external-accounts/record.ts"
import { challengeRefusal, externalAccountStatus, STATUS_UPDATED, statusEvents } from "../../machines/external-account-status.ts"
import { Ids } from "../../ports/ids.ts"
import { Notifier } from "../../ports/notifier.ts"
import { Store } from "../../ports/store.ts"
import { commitStep } from "../common/step.ts"
import { findExternalAccount } from "./external-accounts.ts"

export { STATUS_UPDATED }

/**
 * Writes the account and, when its status changed, emits EXTERNAL_ACCOUNT.STATUS_UPDATED into
 * the outbox in the same transaction (spec "Events"): the change and its event commit together.
 */
export const saveAccount = (platform: PlatformRecord, before: ExternalAccountRecord, after: ExternalAccountRecord) =>
  Effect.gen(function* () {
    yield* putAccount(platform)(after)
    const notifier = yield* Notifier
    for (const event of statusEvents(before, after)) yield* notifier.publish(platform.id, event)
  })

const putAccount = (platform: PlatformRecord) => (account: ExternalAccountRecord) =>
  Effect.flatMap(Store, (store) => store.put(ExternalAccounts, platform.id, account))

export const OwnershipChallengeBody = Schema.Struct({ method: Schema.Literal("WALLET_SIGNATURE", "LIVENESS") })
export const OwnershipVerifyBody = Schema.Struct({ signature: NonEmpty(4096), signatureScheme: optional(Schema.Literal("bip137", "electrum")) })
const decodeVerify = decodeBody(OwnershipVerifyBody)

/**
 * POST …/{id}/challenge {method}, on the platform's and the customers' route alike, for any
 * external account of the platform (DECISIONS #124): only a FIRST_PARTY self-custody wallet
 * awaiting or having failed verification (else 409). A new challenge replaces the old; UNVERIFIED goes back to
 * PENDING_OWNERSHIP_VERIFICATION.
 */
export const startOwnershipChallenge = (platform: PlatformRecord, id: string, body: unknown) =>
  Effect.gen(function* () {
    const input = decodeBody(OwnershipChallengeBody)(body)
    if (Either.isLeft(input)) return yield* input.left
    const method: OwnershipMethod = input.right.method
    return yield* commitStep(
      platform.id,
      Effect.gen(function* () {
        const account = yield* findExternalAccount(platform, id)
        const keyedWallet = chains[account.accountInfo.accountType] !== undefined
        const now = yield* Clock.currentTimeMillis
        // The nonce is drawn only for a challenge the machine will accept.
        const refusal = challengeRefusal(account, keyedWallet)
        if (refusal !== undefined) return yield* refusal
        const nonce = yield* (yield* Ids).uuid
        const transition = yield* externalAccountStatus(account, { _tag: "StartChallenge", method, nonce, keyedWallet }, now)
        return { transition, save: putAccount(platform), view: challengeView }
      })
    )
  })

const challengeView = (account: ExternalAccountRecord) => {
  const challenge = account.challenge!
  const expiresAt = rfc3339(challenge.expiresAtMs)
  return reply(
    201,
    challenge.method === "WALLET_SIGNATURE"
      ? { method: challenge.method, messageToSign: challenge.messageToSign!, expiresAt }
      : { method: challenge.method, verificationLink: challenge.verificationLink!, expiresAt }
  )
}

/**
 * POST …/{id}/verify {signature, signatureScheme}: the spec's table. A valid signature before
 * expiresAt → 200 ACTIVE; an invalid or late one → 400 and UNVERIFIED (a new challenge is needed);
 * no outstanding WALLET_SIGNATURE challenge → 409. The failure's state change is kept.
 */
export const verifyOwnership = (platform: PlatformRecord, id: string, body: unknown) =>
  commitStep(
    platform.id,
    Effect.gen(function* () {
      const current = yield* findExternalAccount(platform, id)
      const input = decodeVerify(body)
      if (Either.isLeft(input)) return yield* input.left
      const chain = chains[current.accountInfo.accountType]
      const address = String(current.accountInfo["address"])
      const verifies = (message: string) =>
        chain !== undefined && chain.verify(address, message, input.right.signature, input.right.signatureScheme ?? "bip137")
      const transition = yield* externalAccountStatus(current, { _tag: "VerifySignature", verifies }, yield* Clock.currentTimeMillis)
      return { transition, save: putAccount(platform), view: externalAccountView }
    })
  )

export const LivenessBody = Schema.Struct({ outcome: Schema.Literal("PASSED", "FAILED") })

/** Sandbox (DECISIONS #15): decides an outstanding LIVENESS challenge; the event carries the result. */
export const decideLiveness = (platform: PlatformRecord, id: string, body: unknown) =>
  Effect.gen(function* () {
    const input = decodeBody(LivenessBody)(body)
    if (Either.isLeft(input)) return yield* input.left
    return yield* commitStep(
      platform.id,
      Effect.gen(function* () {
        const account = yield* findExternalAccount(platform, id)
        const transition = yield* externalAccountStatus(account, { _tag: "DecideLiveness", outcome: input.right.outcome }, yield* Clock.currentTimeMillis)
        return { transition, save: putAccount(platform), view: externalAccountView }
      })
    )
  })
