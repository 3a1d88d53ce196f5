import { Effect } from "effect"
import { Sessions } from "../domain/collections.ts"
import type { PlatformRecord } from "../domain/platform/platform.ts"
import { isActiveSession } from "../domain/wallet-auth/session.ts"
import { Store } from "../ports/store.ts"

/**
 * Who may stamp a signed retry (notes-wallet-auth §1.2): a session on the account (adding a
 * credential, revoking a session, export, privacy); a session of another credential (revoking
 * a credential); one named session (refresh); or one named key (the TEK of an OTP verify).
 */
export type SignerRule =
  | { readonly _tag: "AccountSession"; readonly excludeAuthMethodId?: string }
  | { readonly _tag: "Session"; readonly sessionId: string }
  | { readonly _tag: "Key"; readonly publicKey: string }

export const accountSession = (excludeAuthMethodId?: string): SignerRule =>
  excludeAuthMethodId === undefined ? { _tag: "AccountSession" } : { _tag: "AccountSession", excludeAuthMethodId }

/** Whether `publicKey` (compressed hex) may sign for `accountId` under `rule` at `nowMs`. */
export const signerAllowed = (platform: PlatformRecord, accountId: string, rule: SignerRule, publicKey: string, nowMs: number) => {
  if (rule._tag === "Key") return Effect.succeed(rule.publicKey === publicKey)
  return Effect.map(
    Effect.flatMap(Store, (store) => store.findBy(Sessions, platform.id, "publicKey", publicKey)),
    (sessions) =>
      sessions.some(
        (s) =>
          s.accountId === accountId &&
          isActiveSession(s, nowMs) &&
          (rule._tag === "Session" ? s.id === rule.sessionId : s.authMethodId !== rule.excludeAuthMethodId)
      )
  )
}
