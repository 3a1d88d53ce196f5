import { Effect, Option } from "effect"
import { Customers } from "../../domain/collections.ts"
import { InvalidCurrency, SelfPayment } from "../../domain/errors.ts"
import { invalidInput } from "../../domain/field-errors.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { Store } from "../../ports/store.ts"
import type { SandboxUmaOutcome } from "../../sandbox/uma-receivers.ts"
import { findLookup } from "../receivers/lookups.ts"

/** Paying one's own UMA address is SELF_PAYMENT (#193). */
const notSelf = (platform: PlatformRecord, umaAddress: string, customerId: string | undefined) =>
  Effect.gen(function* () {
    if (customerId === undefined) return
    const sender = yield* (yield* Store).get(Customers, platform.id, customerId)
    if (Option.isSome(sender) && sender.value.umaAddress.toLowerCase() === umaAddress.toLowerCase())
      return yield* new SelfPayment({ message: "The destination is the sender's own UMA address", details: { umaAddress } })
  })

/**
 * A UMA destination through the lookup its `lookupId` names (DECISIONS #178, #194): the lookup
 * must be of this platform and of this address (400 on `lookupId` otherwise: the reference
 * declares no 404 for `POST /quotes`), and the currency one the receiver accepts (default: its
 * first). Answers the receiving currency and, for a sandbox receiver, what paying it does.
 */
export const resolveUmaDestination = (
  platform: PlatformRecord,
  lookupId: string,
  destination: { readonly umaAddress: string; readonly currency?: string },
  customerId: string | undefined
) =>
  Effect.gen(function* () {
    yield* notSelf(platform, destination.umaAddress, customerId)
    const lookup = yield* Effect.catchTag(findLookup(platform.id, lookupId), "LOOKUP_REQUEST_NOT_FOUND", () =>
      Effect.fail(invalidInput([{ field: "lookupId", message: "names no receiver lookup of this platform (GET /receiver/uma/{address} answers one)" }]))
    )
    if (lookup.receiverUmaAddress?.toLowerCase() !== destination.umaAddress.toLowerCase())
      return yield* invalidInput([{ field: "lookupId", message: "is the lookup of another receiver than destination.umaAddress" }])
    if (lookup.receiver.type === "CUSTOMER" && lookup.receiver.customerId === customerId)
      return yield* new SelfPayment({ message: "The destination is the sender's own UMA address", details: { umaAddress: destination.umaAddress } })
    const currency = destination.currency ?? lookup.supportedCurrencies[0]
    if (currency === undefined || !lookup.supportedCurrencies.includes(currency))
      return yield* new InvalidCurrency({
        message: `The receiver does not accept ${currency ?? "any currency the sandbox trades"}`,
        details: { currency, supportedCurrencies: lookup.supportedCurrencies }
      })
    const outcome: SandboxUmaOutcome | undefined = lookup.receiver.type === "SANDBOX_UMA" ? lookup.receiver.outcome : undefined
    return { currency, ...(outcome === undefined ? {} : { outcome }) }
  })
