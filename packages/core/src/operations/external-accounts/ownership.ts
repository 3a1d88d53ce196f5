import { Clock, Effect, Either, Schema } from "effect"
import { ExternalAccounts } from "../../domain/collections.ts"
import { NonEmpty, optional } from "../../domain/common.ts"
import { Conflict, InvalidInput } from "../../domain/errors.ts"
import { decodeBody } from "../../domain/wallet-auth/inputs.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { reply } from "../../domain/reply.ts"
import { rfc3339 } from "../../domain/time.ts"
import { lifetimes } from "../../limits.ts"
import { LIVENESS_LINK_BASE } from "../../sandbox/literals.ts"
import { chains } from "../../domain/external-accounts/chains.ts"
import { type ExternalAccountRecord, type ExternalAccountStatus, externalAccountView, type OwnershipMethod } from "../../domain/external-accounts/record.ts"
import { Ids } from "../../ports/ids.ts"
import { Notifier } from "../../ports/notifier.ts"
import { Store } from "../../ports/store.ts"
import { type ExternalAccountRoute, loadExternalAccount } from "./external-accounts.ts"

export const STATUS_UPDATED = "EXTERNAL_ACCOUNT.STATUS_UPDATED"

/**
 * Writes the account and, when its status changed, emits EXTERNAL_ACCOUNT.STATUS_UPDATED into
 * the outbox in the same transaction (spec "Events"): the change and its event commit together.
 */
export const saveAccount = (platform: PlatformRecord, before: ExternalAccountRecord, after: ExternalAccountRecord) =>
  Effect.gen(function* () {
    yield* (yield* Store).put(ExternalAccounts, platform.id, after)
    if (before.status !== after.status)
      yield* (yield* Notifier).publish(platform.id, { type: STATUS_UPDATED, resourceId: after.id, data: externalAccountView(after) })
  })

const conflict = (reason: string, message: string) => new Conflict({ message, details: { reason } })

export const OwnershipChallengeBody = Schema.Struct({ method: Schema.Literal("WALLET_SIGNATURE", "LIVENESS") })
export const OwnershipVerifyBody = Schema.Struct({ signature: NonEmpty(4096), signatureScheme: optional(Schema.Literal("bip137", "electrum")) })
const decodeVerify = decodeBody(OwnershipVerifyBody)

/** DECISIONS #12: readable, unique, names the account; one line per fact, no surrounding space. */
const messageFor = (account: ExternalAccountRecord, nonce: string, expiresAtMs: number) =>
  [
    "I verify that I control this wallet.",
    `Account: ${account.id}`,
    `Address: ${String(account.accountInfo["address"])}`,
    `Nonce: ${nonce}`,
    `Expires: ${rfc3339(expiresAtMs)}`
  ].join("\n")

/**
 * POST …/{id}/challenge {method}: only a FIRST_PARTY self-custody wallet awaiting or having
 * failed verification (else 409). A new challenge replaces the old; UNVERIFIED goes back to
 * PENDING_OWNERSHIP_VERIFICATION.
 */
export const startOwnershipChallenge = (platform: PlatformRecord, id: string, body: unknown, route: ExternalAccountRoute) =>
  Effect.gen(function* () {
    const input = decodeBody(OwnershipChallengeBody)(body)
    if (Either.isLeft(input)) return yield* input.left
    const method: OwnershipMethod = input.right.method
    return yield* (yield* Store).transaction(
      Effect.gen(function* () {
        const account = yield* loadExternalAccount(platform, id, route)
        if (chains[account.accountInfo.accountType] === undefined)
          return yield* conflict("NOT_A_KEYED_WALLET", "Ownership verification applies only to crypto wallets with a key (not bank accounts or Lightning)")
        if (account.accountInfo["vaspName"] !== undefined) return yield* conflict("CUSTODIAL_WALLET", "A custodial wallet (vaspName) needs no ownership proof")
        if (account.ownershipType !== "FIRST_PARTY") return yield* conflict("NOT_FIRST_PARTY", "Only FIRST_PARTY wallets prove ownership")
        if (account.status !== "PENDING_OWNERSHIP_VERIFICATION" && account.status !== "UNVERIFIED")
          return yield* conflict("ALREADY_VERIFIED", `The account is ${account.status}; no ownership verification is pending`)
        const now = yield* Clock.currentTimeMillis
        const nonce = yield* (yield* Ids).uuid
        const expiresAtMs = now + lifetimes.ownershipChallengeMs
        const challenge =
          method === "WALLET_SIGNATURE"
            ? { method, nonce, expiresAtMs, messageToSign: messageFor(account, nonce, expiresAtMs) }
            : { method, nonce, expiresAtMs, verificationLink: `${LIVENESS_LINK_BASE}/${encodeURIComponent(account.id)}/${nonce}` }
        const updated: ExternalAccountRecord = { ...account, status: "PENDING_OWNERSHIP_VERIFICATION", challenge, updatedAt: rfc3339(now) }
        yield* saveAccount(platform, account, updated)
        return reply(
          201,
          method === "WALLET_SIGNATURE"
            ? { method, messageToSign: challenge.messageToSign!, expiresAt: rfc3339(expiresAtMs) }
            : { method, verificationLink: challenge.verificationLink!, expiresAt: rfc3339(expiresAtMs) }
        )
      })
    )
  })

const settleChallenge = (platform: PlatformRecord, account: ExternalAccountRecord, status: ExternalAccountStatus) =>
  Effect.gen(function* () {
    const { challenge: _spent, ...rest } = account
    const updated: ExternalAccountRecord = { ...rest, status, updatedAt: rfc3339(yield* Clock.currentTimeMillis) }
    yield* saveAccount(platform, account, updated)
    return updated
  })

/**
 * POST …/{id}/verify {signature, signatureScheme}: the spec's table. A valid signature before
 * expiresAt → 200 ACTIVE; an invalid or late one → 400 and UNVERIFIED (a new challenge is needed);
 * no outstanding WALLET_SIGNATURE challenge → 409. The failure's state change is kept.
 */
export const verifyOwnership = (platform: PlatformRecord, id: string, body: unknown, route: ExternalAccountRoute) =>
  Effect.gen(function* () {
    const store = yield* Store
    const outcome = yield* store.transaction(
      Effect.gen(function* () {
        const current = yield* loadExternalAccount(platform, id, route)
        const input = decodeVerify(body)
        if (Either.isLeft(input)) return yield* input.left
        const challenge = current.challenge
        if (challenge === undefined || challenge.method !== "WALLET_SIGNATURE")
          return yield* conflict("NO_OUTSTANDING_CHALLENGE", "No WALLET_SIGNATURE challenge is outstanding for this account")
        if ((yield* Clock.currentTimeMillis) >= challenge.expiresAtMs)
          return { ok: false as const, reason: "CHALLENGE_EXPIRED", account: yield* settleChallenge(platform, current, "UNVERIFIED") }
        const chain = chains[current.accountInfo.accountType]!
        const valid = chain.verify(String(current.accountInfo["address"]), challenge.messageToSign!, input.right.signature, input.right.signatureScheme ?? "bip137")
        return valid
          ? { ok: true as const, account: yield* settleChallenge(platform, current, "ACTIVE") }
          : { ok: false as const, reason: "SIGNATURE_INVALID", account: yield* settleChallenge(platform, current, "UNVERIFIED") }
      })
    )
    if (!outcome.ok)
      return yield* new InvalidInput({
        message:
          outcome.reason === "CHALLENGE_EXPIRED"
            ? "The challenge expired; the account is UNVERIFIED until a new challenge is verified"
            : "The signature does not prove ownership of the address; the account is UNVERIFIED until a new challenge is verified",
        details: { reason: outcome.reason, errors: [{ field: "signature", message: outcome.reason === "CHALLENGE_EXPIRED" ? "arrived after expiresAt" : "does not verify" }] }
      })
    return externalAccountView(outcome.account)
  })

export const LivenessBody = Schema.Struct({ outcome: Schema.Literal("PASSED", "FAILED") })

/** Sandbox (DECISIONS #15): decides an outstanding LIVENESS challenge; the event carries the result. */
export const decideLiveness = (platform: PlatformRecord, id: string, body: unknown) =>
  Effect.gen(function* () {
    const input = decodeBody(LivenessBody)(body)
    if (Either.isLeft(input)) return yield* input.left
    return yield* (yield* Store).transaction(
      Effect.gen(function* () {
        const account = yield* loadExternalAccount(platform, id, "customers")
        if (account.challenge?.method !== "LIVENESS") return yield* conflict("NO_OUTSTANDING_CHALLENGE", "No LIVENESS challenge is outstanding for this account")
        return externalAccountView(yield* settleChallenge(platform, account, input.right.outcome === "PASSED" ? "ACTIVE" : "UNVERIFIED"))
      })
    )
  })
