import { createHash } from "node:crypto"
import { Effect, Option } from "effect"
import type { CardRecord } from "../../domain/cards/card.ts"
import { Cards } from "../../domain/collections.ts"
import type { DelegatedKeyRecord } from "../../domain/delegated-keys/delegated-key.ts"
import { makeId } from "../../domain/ids.ts"
import { referenceNotFound } from "../../domain/not-found.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { Store } from "../../ports/store.ts"
import { loadCard } from "../cards/load.ts"
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

/** Whether the card lists the wallet among its funding sources (a CLOSED card lists none). */
export const isBound = (card: Pick<CardRecord, "fundingSources">, accountId: string): boolean => card.fundingSources.includes(accountId)

/**
 * The card funding source named by a card and a wallet (DECISIONS #261): the wallet must be an
 * EMBEDDED_WALLET internal account of the platform (404 InternalAccount), the card a card of the
 * platform (404 Card) and the wallet one of the card's funding sources (404 CardFundingSource,
 * the reference's "card funding source not found"). Checked at every leg of a creation.
 */
export const resolveFundingSource = (platform: PlatformRecord, cardId: string, accountId: string) =>
  Effect.gen(function* () {
    const wallet = yield* loadWallet(platform, accountId)
    const card = yield* loadCard(platform, cardId)
    const fundingSourceId = fundingSourceIdOf(card.id, wallet.id)
    if (!isBound(card, wallet.id)) return yield* referenceNotFound("CardFundingSource", fundingSourceId, { cardId: card.id, accountId: wallet.id })
    return { cardId: card.id, accountId: wallet.id, fundingSourceId }
  })

/**
 * Whether a delegated key's funding source is still bound (DECISIONS #261): its card exists and
 * still lists its wallet. A key whose card was closed, or whose wallet was taken off the card,
 * stays ACTIVE but signs nothing until the wallet is a funding source of the card again.
 */
export const fundingSourceBound = (platform: PlatformRecord, key: Pick<DelegatedKeyRecord, "cardId" | "accountId">) =>
  Effect.map(
    Effect.flatMap(Store, (store) => store.get(Cards, platform.id, key.cardId)),
    (card) => Option.isSome(card) && isBound(card.value, key.accountId)
  )
