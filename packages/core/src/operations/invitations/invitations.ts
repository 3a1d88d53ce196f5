import { Clock, Effect, Either, Option } from "effect"
import { Customers, InternalAccounts, Invitations } from "../../domain/collections.ts"
import { type InvalidInput, InvalidUmaAddress, InvitationNotFound, InvitationsNotConfigured } from "../../domain/errors.ts"
import { decodeBody, type FieldError, invalidInput } from "../../domain/field-errors.ts"
import { currencyByCode } from "../../domain/money/exchange-rate.ts"
import { InvitationClaim, InvitationCreate, type InvitationRecord, invitationView, isUmaAddress } from "../../domain/invitations/invitation.ts"
import type { PlatformRecord } from "../../domain/platform/platform.ts"
import { rfc3339 } from "../../domain/time.ts"
import { invitation, type InvitationEvent, invitationStatus } from "../../machines/invitation.ts"
import { Ids } from "../../ports/ids.ts"
import { Store } from "../../ports/store.ts"
import { INVITATION_CODE_BYTES } from "../../limits.ts"
import { commitStep } from "../common/step.ts"
import { currentPlatform } from "../platform/platforms.ts"

/**
 * UMA invitations (DECISIONS #250–#254): a customer of the platform invites someone by link; the
 * invitee claims it with their UMA address, which tells the platform by INVITATION.CLAIMED.
 */

const decodeCreate = decodeBody(InvitationCreate)
const decodeClaim = decodeBody(InvitationClaim)

const umaFields = new Set(["inviterUma", "inviteeUma"])

/**
 * Every invalid field at once: when only UMA addresses are wrong the reference's own code,
 * INVALID_UMA_ADDRESS, says so; otherwise INVALID_INPUT lists them all, addresses included.
 */
const refuseFields = (all: ReadonlyArray<FieldError>): InvalidInput | InvalidUmaAddress => {
  // One error per field: a too-long address that is also malformed is listed once.
  const errors = all.filter((e, i) => all.findIndex((f) => f.field === e.field) === i)
  return errors.every((e) => umaFields.has(e.field))
    ? new InvalidUmaAddress({
        message: errors.length === 1 ? `Invalid UMA address in ${errors[0]!.field}: ${errors[0]!.message}` : "Invalid UMA addresses",
        details: { errors }
      })
    : invalidInput(errors)
}

const fieldsOf = (e: InvalidInput): ReadonlyArray<FieldError> => ((e.details?.["errors"] as ReadonlyArray<FieldError> | undefined) ?? [])

const umaProblem = (field: string, value: unknown): ReadonlyArray<FieldError> =>
  typeof value === "string" && !isUmaAddress(value) ? [{ field, message: "must be a UMA address such as $alice@example.com" }] : []

const invitationNotFound = (code: string) =>
  new InvitationNotFound({ message: `Invitation ${code} not found`, details: { code } })

const findInvitation = (platform: PlatformRecord, code: string) =>
  Effect.gen(function* () {
    const found = /^[0-9a-f]{1,64}$/.test(code) ? yield* (yield* Store).get(Invitations, platform.id, code) : Option.none()
    if (Option.isNone(found)) return yield* Effect.fail(invitationNotFound(code))
    return found.value
  })

/**
 * POST /invitations: the inviter must be an active customer of the platform (by UMA address), and
 * the platform must have a webhook URL, the only way it learns of the claim (#252). `amountToSend`
 * is in the smallest unit of the inviter's currency, shown, never moved (#253).
 */
export const createInvitation = (given: PlatformRecord, body: unknown) =>
  Effect.gen(function* () {
    const decoded = decodeCreate(body)
    const raw = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {}
    const now = yield* Clock.currentTimeMillis
    const errors: Array<FieldError> = [...(Either.isLeft(decoded) ? fieldsOf(decoded.left) : []), ...umaProblem("inviterUma", raw["inviterUma"])]
    if (Either.isRight(decoded) && decoded.right.expiresAt !== undefined && Date.parse(decoded.right.expiresAt) <= now)
      errors.push({ field: "expiresAt", message: "must be in the future" })
    if (errors.length > 0 || Either.isLeft(decoded)) return yield* Effect.fail(refuseFields(errors))
    const input = decoded.right
    const platform = yield* currentPlatform(given)
    if (platform.webhookUrl === undefined)
      return yield* new InvitationsNotConfigured({
        message: "Invitations need a webhook URL to report claims to: set webhookEndpoint with PATCH /config",
        details: {}
      })
    const store = yield* Store
    const code = Buffer.from(yield* (yield* Ids).bytes(INVITATION_CODE_BYTES)).toString("hex")
    return yield* store.transaction(
      Effect.gen(function* () {
        const [inviter] = yield* store.findBy(Customers, platform.id, "umaAddress", input.inviterUma.toLowerCase())
        if (inviter === undefined)
          return yield* Effect.fail(refuseFields([{ field: "inviterUma", message: "names no customer of this platform" }]))
        // "The customer's currency": the first it declared, else its fiat account's, else USD.
        const accounts = yield* store.findBy(InternalAccounts, platform.id, "customerId", inviter.id)
        const declared = inviter.currencies?.[0] === undefined ? undefined : currencyByCode(inviter.currencies[0])
        const currency = declared ?? accounts.find((a) => a.type === "INTERNAL_FIAT")?.balance.currency ?? currencyByCode("USD")!
        const at = rfc3339(now)
        const record: InvitationRecord = {
          id: code,
          status: "PENDING",
          inviterUma: inviter.umaAddress,
          inviterCustomerId: inviter.id,
          url: `https://${platform.umaDomain}/i/${code}`,
          ...(input.firstName === undefined ? {} : { firstName: input.firstName }),
          ...(input.amountToSend === undefined ? {} : { amountToSend: { amount: input.amountToSend, currency } }),
          ...(input.expiresAt === undefined ? {} : { expiresAt: input.expiresAt }),
          createdAt: at,
          updatedAt: at
        }
        yield* store.put(Invitations, platform.id, record)
        return invitationView(record, "PENDING")
      })
    )
  })

/** GET /invitations/{code}: with its status as of now (EXPIRED read off the clock). */
export const getInvitation = (platform: PlatformRecord, code: string) =>
  Effect.gen(function* () {
    const found = yield* findInvitation(platform, code)
    return invitationView(found, invitationStatus(found, yield* Clock.currentTimeMillis))
  })

const step = (platform: PlatformRecord, code: string, event: InvitationEvent) =>
  commitStep(
    platform.id,
    Effect.gen(function* () {
      const store = yield* Store
      const current = yield* findInvitation(platform, code)
      const now = yield* Clock.currentTimeMillis
      const transition = yield* invitation(current, event, now)
      return {
        transition,
        save: (next: InvitationRecord) => store.put(Invitations, platform.id, next),
        view: (next: InvitationRecord) => invitationView(next, invitationStatus(next, now))
      }
    })
  )

/** POST /invitations/{code}/claim: PENDING → CLAIMED, and INVITATION.CLAIMED in the same transaction. */
export const claimInvitation = (platform: PlatformRecord, code: string, body: unknown) =>
  Effect.gen(function* () {
    const decoded = decodeClaim(body)
    const raw = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {}
    const errors = [...(Either.isLeft(decoded) ? fieldsOf(decoded.left) : []), ...umaProblem("inviteeUma", raw["inviteeUma"])]
    if (errors.length > 0 || Either.isLeft(decoded)) return yield* Effect.fail(refuseFields(errors))
    return yield* step(platform, code, { _tag: "Claim", inviteeUma: decoded.right.inviteeUma })
  })

/** POST /invitations/{code}/cancel: PENDING → CANCELLED; any other status is 400 with its code. */
export const cancelInvitation = (platform: PlatformRecord, code: string) => step(platform, code, { _tag: "Cancel" })
