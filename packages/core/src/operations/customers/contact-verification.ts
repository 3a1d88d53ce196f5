import { Clock, Effect, Either } from "effect"
import { utf8 } from "../../crypto/encoding.ts"
import { constantTimeEqual } from "../../crypto/secrets.ts"
import { Customers } from "../../domain/collections.ts"
import { type ContactChannel, contactField, ContactVerificationConfirmRequest } from "../../domain/customers/contact-verification.ts"
import { type CustomerRecord, customerView } from "../../domain/customers/customer.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { NO_CONTENT } from "../../domain/reply.ts"
import { rfc3339 } from "../../domain/time.ts"
import { decodeBody } from "../../domain/field-errors.ts"
import { type ChannelState, type ContactEvent, contactChannel } from "../../machines/contact-verification.ts"
import { Store } from "../../ports/store.ts"
import { CONTACT_VERIFICATION_SANDBOX_CODE } from "../../sandbox/literals.ts"
import { commitStep } from "../common/step.ts"
import { customerNotFound, loadCustomer } from "./customers.ts"

const decodeConfirm = decodeBody(ContactVerificationConfirmRequest)

/** The machine's view of one channel of a customer (undefined: not required). */
const channelOf = (customer: CustomerRecord, channel: ContactChannel): ChannelState | undefined => {
  const status = customer.contactVerification?.[channel]
  if (status === undefined) return undefined
  const pending = customer.contactCodes?.[channel]
  return pending === undefined ? { status } : { status, pending }
}

/**
 * Writes a channel's next state back into the customer. `updatedAt` moves only when the status a
 * client sees changes (a confirmed code); sending a code or counting a wrong one does not change
 * the customer resource.
 */
const withChannel = (customer: CustomerRecord, channel: ContactChannel, state: ChannelState | undefined, now: number): CustomerRecord => {
  if (state === undefined) return customer
  const { [channel]: _old, ...otherCodes } = customer.contactCodes ?? {}
  const codes = state.pending === undefined ? otherCodes : { ...otherCodes, [channel]: state.pending }
  const changed = customer.contactVerification?.[channel] !== state.status
  const { contactCodes: _all, ...rest } = customer
  return {
    ...rest,
    contactVerification: { ...customer.contactVerification, [channel]: state.status },
    ...(Object.keys(codes).length === 0 ? {} : { contactCodes: codes }),
    ...(changed ? { updatedAt: rfc3339(now) } : {})
  }
}

/** Loads the customer (404 for an unknown or deleted one), steps its channel, saves it, answers `view`. */
const stepChannel = <A>(
  platform: PlatformRecord,
  customerId: string,
  channel: ContactChannel,
  event: (customer: CustomerRecord) => ContactEvent,
  view: (customer: CustomerRecord) => A
) =>
  commitStep(
    platform.id,
    Effect.gen(function* () {
      const customer = yield* loadCustomer(platform, customerId)
      if (customer.isDeleted) return yield* Effect.fail(customerNotFound(customerId))
      const now = yield* Clock.currentTimeMillis
      const transition = yield* contactChannel(channelOf(customer, channel), event(customer), now)
      const updated = withChannel(customer, channel, transition.state, now)
      return {
        transition: { ...transition, state: updated },
        save: (c: CustomerRecord) => Effect.flatMap(Store, (store) => store.put(Customers, platform.id, c)),
        view
      }
    })
  )

const hasAddress = (customer: CustomerRecord, channel: ContactChannel) => customer[contactField[channel]] !== undefined

/**
 * POST /customers/{id}/verify-email and /verify-phone: sends (or resends) a code, 204. In the
 * sandbox nothing is delivered and the code is always CONTACT_VERIFICATION_SANDBOX_CODE.
 */
export const sendContactCode = (platform: PlatformRecord, customerId: string, channel: ContactChannel) =>
  stepChannel(platform, customerId, channel, (c) => ({ _tag: "Send", hasAddress: hasAddress(c, channel) }), () => NO_CONTENT)

/** POST …/verify-email/confirm and …/verify-phone/confirm: the right code makes the channel VERIFIED; 200 with the customer. */
export const confirmContactCode = (platform: PlatformRecord, customerId: string, channel: ContactChannel, body: unknown) =>
  Effect.gen(function* () {
    const input = decodeConfirm(body)
    if (Either.isLeft(input)) return yield* input.left
    const codeMatches = constantTimeEqual(utf8(input.right.code), utf8(CONTACT_VERIFICATION_SANDBOX_CODE))
    return yield* stepChannel(
      platform,
      customerId,
      channel,
      (c) => ({ _tag: "Confirm", hasAddress: hasAddress(c, channel), codeMatches }),
      customerView
    )
  })
