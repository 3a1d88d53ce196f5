import { Effect, Option } from "effect"
import { Cards, DelegatedKeys, Sessions } from "../domain/collections.ts"
import { maySign } from "../machines/delegated-key.ts"
import type { PlatformRecord } from "../domain/platform/platform.ts"
import { isActiveSession } from "../domain/wallet-auth/session.ts"
import { Keys } from "../ports/keys.ts"
import { Store } from "../ports/store.ts"
import { custodiedKeyPair } from "./custody.ts"

/**
 * Who may stamp a signed retry (notes-wallet-auth §1.2): a session on the account (adding a
 * credential, revoking a session, export, privacy); a session of another credential (revoking
 * a credential); one named session (refresh); or one named key (the TEK of an OTP verify).
 * `AccountSigner` is a session on the account or, in its place, an ACTIVE delegated key of the
 * account: what may release the wallet's money (a quote execution, DECISIONS #265).
 */
export type SignerRule =
  | { readonly _tag: "AccountSession"; readonly excludeAuthMethodId?: string }
  | { readonly _tag: "AccountSigner" }
  | { readonly _tag: "Session"; readonly sessionId: string }
  | { readonly _tag: "Key"; readonly publicKey: string }

export const accountSession = (excludeAuthMethodId?: string): SignerRule =>
  excludeAuthMethodId === undefined ? { _tag: "AccountSession" } : { _tag: "AccountSession", excludeAuthMethodId }

export const accountSigner: SignerRule = { _tag: "AccountSigner" }

/**
 * Whether `publicKey` is an ACTIVE delegated key of `accountId` whose card still lists the
 * account among its funding sources (DECISIONS #261: a closed card, or a wallet taken off the
 * card, leaves the key unable to sign).
 */
const delegatedSigner = (platform: PlatformRecord, accountId: string, publicKey: string) =>
  Effect.gen(function* () {
    const store = yield* Store
    const keys = yield* store.findBy(DelegatedKeys, platform.id, "publicKey", publicKey)
    for (const k of keys) {
      if (k.accountId !== accountId || !maySign(k.status)) continue
      // Only a key this server custodies signs (#263): an imported record naming another key does not.
      if ((yield* custodiedKeyPair(k.id)).publicKey !== k.publicKey) continue
      const card = yield* store.get(Cards, platform.id, k.cardId)
      if (Option.isSome(card) && card.value.fundingSources.includes(accountId)) return true
    }
    return false
  })

/** Whether `publicKey` (compressed hex) may sign for `accountId` under `rule` at `nowMs`. */
export const signerAllowed = (platform: PlatformRecord, accountId: string, rule: SignerRule, publicKey: string, nowMs: number): Effect.Effect<boolean, unknown, Store | Keys> => {
  if (rule._tag === "Key") return Effect.succeed(rule.publicKey === publicKey)
  const bySession = Effect.map(
    Effect.flatMap(Store, (store) => store.findBy(Sessions, platform.id, "publicKey", publicKey)),
    (sessions) =>
      sessions.some(
        (s) =>
          s.accountId === accountId &&
          isActiveSession(s, nowMs) &&
          (rule._tag === "Session" ? s.id === rule.sessionId : rule._tag === "AccountSigner" || s.authMethodId !== rule.excludeAuthMethodId)
      )
  )
  if (rule._tag !== "AccountSigner") return bySession
  return Effect.flatMap(bySession, (ok) => (ok ? Effect.succeed(true) : delegatedSigner(platform, accountId, publicKey)))
}
