import { Clock, Effect, Either } from "effect"
import { InternalAccounts } from "../../domain/collections.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { reply } from "../../domain/reply.ts"
import { rfc3339 } from "../../domain/time.ts"
import { ExportBody, InternalAccountUpdate } from "../../domain/wallet-auth/inputs.ts"
import { decodeBody } from "../../domain/field-errors.ts"
import { sealExport } from "../../crypto/bundles.ts"
import { walletMnemonic } from "../../crypto/mnemonic.ts"
import { Keys } from "../../ports/keys.ts"
import { Store } from "../../ports/store.ts"
import { accountSession } from "../../signed-retry/authorize.ts"
import { activityPayload } from "../../signed-retry/canonical.ts"
import { defineSignedOperation } from "../../signed-retry/registry.ts"
import { type SignedHeaders, signedRetry } from "../../signed-retry/signed-retry.ts"
import type { SignedTarget } from "../../signed-retry/target.ts"
import { ephemeralSecret, loadWallet } from "../wallet-auth/wallet-context.ts"

/** The wallet's BIP-39 mnemonic, the master secret its keys derive from (crypto/mnemonic.ts). */
const mnemonicOf = (accountId: string) =>
  Effect.map(Effect.flatMap(Keys, (k) => k.secret("wallet-seed-hmac", 32)), (key) => walletMnemonic(key, accountId))

export const exportWalletOp = defineSignedOperation(
  "exportWallet",
  (platform: PlatformRecord, input: { readonly accountId: string; readonly clientPublicKey: string }) =>
    Effect.gen(function* () {
      const wallet = yield* loadWallet(platform, input.accountId)
      const sealed = sealExport(Buffer.from(input.clientPublicKey, "hex"), yield* mnemonicOf(wallet.id), platform.id, yield* ephemeralSecret)
      return reply(200, { id: wallet.id, encryptedWalletCredentials: sealed })
    }),
  // The credentials exist only in the answer to the re-sent retry (spec, still-processing 4).
  { reconcilable: false }
)

/** POST /internal-accounts/{id}/export {clientPublicKey}: 202, then 200 with the sealed credentials. */
export const exportWallet = (platform: PlatformRecord, id: string, body: unknown, headers: SignedHeaders, target: SignedTarget) =>
  Effect.gen(function* () {
    const input = decodeBody(ExportBody)(body)
    if (Either.isLeft(input)) return yield* input.left
    const wallet = yield* loadWallet(platform, id)
    const clientPublicKey = input.right.clientPublicKey.toLowerCase()
    return yield* signedRetry({
      platform,
      accountId: wallet.id,
      ...target,
      body,
      headers,
      operation: exportWalletOp,
      signer: () => accountSession(),
      prepare: Effect.succeed({
        input: { accountId: wallet.id, clientPublicKey },
        payload: (requestId: string, nowMs: number) =>
          activityPayload({
            type: "ACTIVITY_TYPE_EXPORT_WALLET",
            organizationId: platform.id,
            requestId,
            nowMs,
            parameters: { targetPublicKey: clientPublicKey, walletId: wallet.id }
          })
      })
    })
  })

export const updateInternalAccountOp = defineSignedOperation(
  "updateInternalAccount",
  (platform: PlatformRecord, input: { readonly accountId: string; readonly privateEnabled: boolean }) =>
    Effect.gen(function* () {
      const wallet = yield* loadWallet(platform, input.accountId)
      const updated = { ...wallet, privateEnabled: input.privateEnabled, updatedAt: rfc3339(yield* Clock.currentTimeMillis) }
      yield* (yield* Store).put(InternalAccounts, platform.id, updated)
      return reply(200, updated)
    })
)

/** PATCH /internal-accounts/{id} {privateEnabled}: the wallet's privacy, a signed retry. */
export const updateInternalAccount = (platform: PlatformRecord, id: string, body: unknown, headers: SignedHeaders, target: SignedTarget) =>
  Effect.gen(function* () {
    const input = decodeBody(InternalAccountUpdate)(body)
    if (Either.isLeft(input)) return yield* input.left
    const wallet = yield* loadWallet(platform, id)
    return yield* signedRetry({
      platform,
      accountId: wallet.id,
      ...target,
      body,
      headers,
      operation: updateInternalAccountOp,
      signer: () => accountSession(),
      prepare: Effect.succeed({
        input: { accountId: wallet.id, privateEnabled: input.right.privateEnabled },
        payload: (requestId: string, nowMs: number) =>
          activityPayload({
            type: "ACTIVITY_TYPE_UPDATE_WALLET_PRIVACY",
            organizationId: platform.id,
            requestId,
            nowMs,
            parameters: { walletId: wallet.id, privateEnabled: input.right.privateEnabled }
          })
      })
    })
  })
