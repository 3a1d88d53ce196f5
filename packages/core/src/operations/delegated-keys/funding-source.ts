import { createHash } from "node:crypto"
import { Effect } from "effect"
import { makeId } from "../../domain/ids.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { loadWallet } from "../wallet-auth/wallet-context.ts"

/**
 * A card funding source is the binding of one card to one of its funding internal accounts. The
 * reference gives it an id of its own but no endpoint; Tessera derives the id from the pair
 * (DECISIONS #261), so the same card and wallet always name the same funding source.
 */
export const fundingSourceIdOf = (cardId: string, accountId: string): string => {
  const h = createHash("sha256").update(`${cardId}|${accountId}`).digest("hex")
  // A version-8 (custom) uuid with the RFC 9562 variant: a uuid by form, derived by us.
  return makeId("CardFundingSource", `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`)
}

/**
 * The funding source a delegated key is for: the wallet must be an EMBEDDED_WALLET internal
 * account of the platform (404 otherwise). The card side is the seam for the card group: until
 * cards are stored, any well-formed card id binds (DECISIONS #261); once they are, the card must
 * exist and list the wallet among its funding sources (404 for the card or the binding).
 */
export const resolveFundingSource = (platform: PlatformRecord, cardId: string, accountId: string) =>
  Effect.map(loadWallet(platform, accountId), (wallet) => ({ cardId, accountId: wallet.id, fundingSourceId: fundingSourceIdOf(cardId, wallet.id) }))
