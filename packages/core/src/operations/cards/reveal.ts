import { Clock, Effect } from "effect"
import { CardRevealBody } from "../../domain/cards/inputs.ts"
import { Forbidden } from "../../domain/errors.ts"
import { decodeInput } from "../../domain/field-errors.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { rfc3339 } from "../../domain/time.ts"
import { sealExport } from "../../crypto/bundles.ts"
import { CARD_REVEAL_LIFETIME_MS } from "../../limits.ts"
import { ephemeralSecret } from "../wallet-auth/wallet-context.ts"
import { runDueStepsOf } from "../transactions/due-runner.ts"
import { loadCard, numbersOf } from "./load.ts"

/** Where the sandbox's reveal URLs point: no iframe is served there (DECISIONS #205). */
export const REVEAL_ORIGIN = "https://cards.sandbox.tessera.invalid"

/**
 * POST /cards/{id}/reveal: `{panEmbedUrl, expiresAt}`. The sandbox has no processor iframe, so
 * when the client sends a `clientPublicKey` the full PAN, CVV and expiry are sealed to it (HPKE,
 * the wallet export's bundle format) and carried in the URL's fragment, which a browser never
 * sends to a server; without one the URL carries nothing secret. Only a card that can transact
 * or is frozen has details to show: PROCESSING, PENDING_KYC and CLOSED cards are 403.
 */
export const revealCard = (platform: PlatformRecord, id: string, body: unknown) =>
  Effect.gen(function* () {
    const input = yield* decodeInput(CardRevealBody)(body ?? {})
    yield* runDueStepsOf(platform.id, id)
    const card = yield* loadCard(platform, id)
    if (card.state !== "ACTIVE" && card.state !== "FROZEN")
      return yield* Effect.fail(new Forbidden({ message: `Card ${card.id} is ${card.state}: it has no details to reveal`, details: { cardId: card.id, state: card.state } }))
    const expiresAtMs = (yield* Clock.currentTimeMillis) + CARD_REVEAL_LIFETIME_MS
    const url = new URL(`${REVEAL_ORIGIN}/cards/${encodeURIComponent(card.id)}/reveal`)
    url.searchParams.set("expires", String(expiresAtMs))
    if (input.clientPublicKey !== undefined) {
      const { pan, cvv } = yield* numbersOf(card)
      const details = JSON.stringify({ pan, cvv, expMonth: card.expMonth, expYear: card.expYear })
      const sealed = sealExport(Buffer.from(input.clientPublicKey, "hex"), details, platform.id, yield* ephemeralSecret)
      url.hash = `bundle=${Buffer.from(sealed, "utf8").toString("base64url")}`
    }
    return { panEmbedUrl: url.toString(), expiresAt: rfc3339(expiresAtMs) }
  })
