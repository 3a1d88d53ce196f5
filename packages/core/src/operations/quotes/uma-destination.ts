import { Effect, Option } from "effect"
import { Customers } from "../../domain/collections.ts"
import { SelfPayment } from "../../domain/errors.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { Store } from "../../ports/store.ts"
import { incomingApprovalOutcome } from "../../sandbox/outcomes.ts"

/** Paying one's own UMA address is SELF_PAYMENT (#193). */
const notSelf = (platform: PlatformRecord, umaAddress: string, customerId: string | undefined) =>
  Effect.gen(function* () {
    if (customerId === undefined) return
    const sender = yield* (yield* Store).get(Customers, platform.id, customerId)
    if (Option.isSome(sender) && sender.value.umaAddress.toLowerCase() === umaAddress.toLowerCase())
      return yield* new SelfPayment({ message: "The destination is the sender's own UMA address", details: { umaAddress } })
  })

// TEMPORARY until h/ledger's UMA lookups land: binds to `lookupId` records then.
export const resolveUmaDestination = (
  platform: PlatformRecord,
  _lookupId: string,
  destination: { readonly umaAddress: string; readonly currency?: string },
  customerId: string | undefined
) => Effect.as(notSelf(platform, destination.umaAddress, customerId), destination.currency ?? "USD")

export const umaOutcomeSuffix = (umaAddress: string): string | undefined =>
  umaAddress.startsWith("$pending.long.") ? "003" : umaAddress.startsWith("$fail.") ? "004" : undefined

// TEMPORARY until h/ledger's UMA receivers land.
export const sandboxSender = (_uma: string) => Effect.void
export const incomingUmaOutcome = (_sender: string) => incomingApprovalOutcome
