import { createHmac } from "node:crypto"
import { Effect, Option } from "effect"
import { Cards, Customers, InternalAccounts } from "../../domain/collections.ts"
import type { CardRecord } from "../../domain/cards/card.ts"
import type { CustomerRecord } from "../../domain/customers/customer.ts"
import { FundingSourceIneligible } from "../../domain/errors.ts"
import { invalidInput } from "../../domain/field-errors.ts"
import { isId } from "../../domain/ids.ts"
import type { InternalAccountRecord } from "../../domain/internal-accounts/internal-account.ts"
import { referenceNotFound } from "../../domain/not-found.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { Keys } from "../../ports/keys.ts"
import { Store } from "../../ports/store.ts"
import { cardNumbers, isIneligibleFundingSource } from "../../sandbox/cards.ts"

/** A card of the platform; a malformed id is simply not found. */
export const loadCard = (platform: PlatformRecord, id: string) =>
  Effect.gen(function* () {
    const found = isId("Card", id) ? yield* (yield* Store).get(Cards, platform.id, id) : Option.none()
    if (Option.isNone(found)) return yield* Effect.fail(referenceNotFound("Card", id))
    return found.value
  })

/** The cardholder named in a create request: an active customer of the platform (400 otherwise: create declares no 404). */
export const loadCardholder = (platform: PlatformRecord, id: string) =>
  Effect.gen(function* () {
    const found = isId("Customer", id) ? yield* (yield* Store).get(Customers, platform.id, id) : Option.none()
    if (Option.isNone(found) || found.value.isDeleted)
      return yield* Effect.fail(invalidInput([{ field: "cardholderId", message: `no customer ${id} of this platform` }]))
    return found.value
  })

/** KYC APPROVED for an individual, KYB APPROVED for a business. */
export const isKycApproved = (c: CustomerRecord): boolean => (c.customerType === "BUSINESS" ? c.kybStatus : c.kycStatus) === "APPROVED"

/**
 * The funding sources of a card (DECISIONS #204): each an ACTIVE internal account of the
 * cardholder whose id does not end in a sandbox-ineligible suffix, all in one currency (`currency`
 * when the card has one). Every refused source is listed in `details.fundingSources`.
 */
export const checkFundingSources = (platform: PlatformRecord, cardholderId: string, ids: ReadonlyArray<string>, currency?: string) =>
  Effect.gen(function* () {
    if (new Set(ids).size !== ids.length) return yield* Effect.fail(invalidInput([{ field: "fundingSources", message: "must not name an account twice" }]))
    const store = yield* Store
    const accounts: Array<InternalAccountRecord> = []
    const refused: Array<{ readonly accountId: string; readonly reason: string }> = []
    const expected = currency
    let first: string | undefined = currency
    for (const id of ids) {
      const found = isId("InternalAccount", id) ? yield* store.get(InternalAccounts, platform.id, id) : Option.none()
      if (Option.isNone(found) || found.value.customerId !== cardholderId) {
        refused.push({ accountId: id, reason: "not an internal account of the cardholder" })
        continue
      }
      const a = found.value
      const code = a.balance.currency.code
      first ??= code
      if (a.status !== "ACTIVE") refused.push({ accountId: id, reason: `account is ${a.status}` })
      else if (isIneligibleFundingSource(id)) refused.push({ accountId: id, reason: "not eligible to fund cards" })
      else if (code !== first) refused.push({ accountId: id, reason: `denominated in ${code}, not ${expected ?? first}` })
      else accounts.push(a)
    }
    if (refused.length > 0)
      return yield* Effect.fail(
        new FundingSourceIneligible({ message: `${refused.length} funding source(s) cannot fund this card`, details: { fundingSources: refused } })
      )
    return { accounts, currency: first! }
  })

/** A card's PAN and CVV: derived from its id under a server secret, never stored (`sandbox/cards.ts`). */
export const numbersOf = (card: Pick<CardRecord, "id">) =>
  Effect.map(Effect.flatMap(Keys, (k) => k.secret("card-pan-hmac", 32)), (key) => cardNumbers(new Uint8Array(createHmac("sha256", key).update(card.id).digest())))
